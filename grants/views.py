"""The fiscal pages: an offer's effect (with its CSV and the trace of any number), and two offers compared.

Views parse the query, call the selectors and render; grants.presentation shapes every figure.
An htmx request gets only the region it swaps (``page.html#region``); every link and form also
works as a plain request. Bad input gets a message naming the field (400), never a 500.
"""

from collections.abc import Callable
from typing import NamedTuple
from urllib.parse import urlencode

from django.http import HttpResponse
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from grants import csv_export, deal, fiscal, presentation, selectors, term_basis
from grants.forms import CompareForm
from negotiations.cached_pages import render_page


def _wants_region(request) -> bool:
    """An htmx swap wants a region; a history restore (the back button) wants the whole page."""
    return bool(request.htmx) and not request.htmx.history_restore_request


# The query parameters each page reads (the scenario, the line explained, the offers compared).
SCENARIO_PARAMS = ("participation", "fiscal_year")
FISCAL_PARAMS = (*SCENARIO_PARAMS, "summary")
EXPLAIN_PARAMS = (*SCENARIO_PARAMS, "line", "code", "years")
COMPARE_PARAMS = ("a", "b", "fiscal_year")


def _render(request, template: str, region: str, build: Callable[[], dict], *, params: tuple[str, ...],
            always_region: bool = False) -> HttpResponse:
    """The page, or for an htmx swap its ``region``, through the record cache (build() makes the context)."""
    response = render_page(request, template, build, region=region if always_region or _wants_region(request) else None,
                           params=params)
    patch_vary_headers(response, ("HX-Request",))
    if response.status_code >= 400 and request.htmx:
        # Keep the address of the last good scenario: a refused one is not worth sharing.
        response["HX-Push-Url"] = "false"
    return response


def _scenario(params) -> fiscal.Scenario:
    return selectors.scenario_from(participation=params.get("participation"), fiscal_year=params.get("fiscal_year"))


def _effect(offer, params) -> tuple[fiscal.Effect | None, Exception | None]:
    """The offer's effect under the scenario in ``params``, or the error that prevents it."""
    try:
        return selectors.fiscal_effect(offer, _scenario(params)), None
    except (fiscal.InvalidScenario, fiscal.InvalidTerms) as error:
        return None, error


class _FiscalPage(NamedTuple):
    context: dict
    effect: fiscal.Effect | None
    names: dict[str, str]
    status: int


def _fiscal_page(request, offer) -> _FiscalPage:
    """The fiscal page for ``offer`` under the request's scenario: its context and its status."""
    effect, error = _effect(offer, request.GET)
    scenario_error = error if isinstance(error, fiscal.InvalidScenario) else None
    # perf: the names, the P/Ts and who tabled the offer in one query (bench/run "record cache off: fiscal page").
    jurisdictions = selectors.jurisdictions(tabled=offer)
    names = jurisdictions.names if effect else {}
    basis = term_basis.offer_basis(offer, pts=jurisdictions.pts, statuses_only=True)
    columns = presentation.column_texts()
    context = {
        "basis": basis,
        "figure_notes": term_basis.figure_notes(basis, scale_program=offer.scale_program),
        "offer": offer,
        "tabled_by": jurisdictions.tabled_by,
        "terms": presentation.terms_summary(offer),
        "controls": presentation.scenario_controls(offer=offer, params=request.GET, effect=effect,
                                                   error=scenario_error),
        "terms_problems": presentation.terms_problems(error) if isinstance(error, fiscal.InvalidTerms) else (),
        "fiscal": (presentation.fiscal_tables(offer=offer, effect=effect, names=names, columns=columns)
                   if effect else None),
        "explanation": None,
        "columns": columns,
    }
    return _FiscalPage(context, effect, names, 400 if scenario_error else 200)


@require_safe
def fiscal_page(request, slug):
    """One offer's fiscal effect under a scenario (participation, fiscal year) given in the query."""

    def build():
        page = _fiscal_page(request, selectors.offer_with_terms(slug))
        # An htmx answer carries the messages by the scenario's fields out of band.
        return {**page.context, "status": page.status, "oob": _wants_region(request)}

    if request.GET.get("summary"):
        # The offer page loads this region into itself; it is a fragment with or without htmx.
        return _render(request, "grants/fiscal.html", "summary", build, params=FISCAL_PARAMS, always_region=True)
    return _render(request, "grants/fiscal.html", "results", build, params=FISCAL_PARAMS)


@require_safe
def explain(request, slug):
    """The trace of one number: ``line``, ``code`` (none: national), the scenario, ``years=all``."""

    def build():
        page = _fiscal_page(request, selectors.offer_with_terms(slug))
        status = page.status
        if page.effect is not None:
            explanation = presentation.explanation(
                effect=page.effect,
                names=page.names,
                line=request.GET.get("line", ""),
                code=request.GET.get("code", ""),
                all_years=request.GET.get("years") == "all",
                close_url=page.context["fiscal"].page_url,
            )
            page.context["explanation"] = explanation
            page.context["explanation_note"] = page.context["figure_notes"].get(request.GET.get("line", ""))
            status = 400 if explanation.problem else status
        return {**page.context, "status": status}

    return _render(request, "grants/fiscal.html", "explanation", build, params=EXPLAIN_PARAMS)


@require_safe
def fiscal_csv(request, slug):
    """The table by P/T as CSV, for the same scenario as the page."""
    offer = selectors.offer_with_terms(slug)
    effect, error = _effect(offer, request.GET)
    if isinstance(error, fiscal.InvalidScenario):
        problem = presentation.scenario_problem(error, request.GET)
        return HttpResponse(f"{problem.label}: {problem.detail.rstrip('.')}. {problem.help}\n", status=400,
                            content_type="text/plain; charset=utf-8")
    if isinstance(error, fiscal.InvalidTerms):
        lines = [f"{p.label}: {p.message}" for p in presentation.terms_problems(error)]
        text = _("The offer's terms do not add up, so its fiscal effect cannot be computed:")
        return HttpResponse("\n".join([text, *lines]) + "\n", status=422, content_type="text/plain; charset=utf-8")
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{csv_export.filename(offer.slug, effect)}"'
    statuses = term_basis.offer_basis(offer, statuses_only=True).statuses()
    csv_export.write(effect, selectors.jurisdiction_names(), response, statuses=statuses,
                     scale_program=offer.scale_program)
    return response


@require_safe
def compare_page(request):
    """Two offers (or the status quo) side by side, with b − a nationally and by P/T."""
    def build():
        # The pickers need every offer's name; only the two compared need their terms.
        form = CompareForm(request.GET, offers=list(selectors.offer_choices()))
        context = {"form": form, "comparison": None, "problems": (), "a": None, "b": None,
                   "swap_url": None, "years": None, "year_options": (), "year_error": None}
        if not form.is_valid():
            return {**context, "status": 400}

        slugs = {form.cleaned_data["a"], form.cleaned_data["b"]}
        context["same"] = len(slugs) == 1
        with_terms = {offer.slug: offer for offer in selectors.offers_with_terms().filter(slug__in=slugs)}
        effects, problems = {}, []
        year = request.GET.get("fiscal_year", "")
        scenario = _scenario({"fiscal_year": year})
        try:
            fiscal.status_quo(selectors.reference_data(), scenario)  # the engine checks the year
        except fiscal.InvalidScenario as error:
            context["year_error"] = presentation.scenario_problem(error, request.GET).detail
            scenario, context["status"] = fiscal.Scenario(), 400

        def effect_of(offer, fiscal_year=None):
            chosen = scenario if fiscal_year is None else _scenario({"fiscal_year": fiscal_year})
            return selectors.status_quo_effect(chosen) if offer is None else selectors.fiscal_effect(offer, chosen)

        for side in ("a", "b"):
            offer = with_terms.get(form.cleaned_data[side])
            context[side] = offer
            try:
                effects[side] = effect_of(offer)
            except fiscal.InvalidTerms as error:
                problems.append((offer, presentation.terms_problems(error)))
        # The one year selector (grants/_year_selector.html) and each year of the phase-ins, with their total.
        context["year_options"] = deal.year_options((context["a"], context["b"]), year)
        if not problems:
            context["years"] = deal.compare_years(context["a"], context["b"], effect_of)
        context["problems"] = tuple(problems)
        compared = [offer for offer in (context["a"], context["b"]) if offer is not None]
        bases = term_basis.offers_basis(compared) if compared else {}
        for side in ("a", "b"):
            offer = context[side]
            side_basis = bases.get(offer.pk) if offer is not None else None
            context[f"basis_{side}"] = side_basis
            context[f"notes_{side}"] = (term_basis.figure_notes(side_basis, scale_program=offer.scale_program)
                                        if side_basis is not None else None)
        swapped = urlencode({"a": form.cleaned_data["b"], "b": form.cleaned_data["a"],
                             **({"fiscal_year": year} if year else {})})
        context["swap_url"] = f"{reverse('grants:compare')}?{swapped}"
        if not problems:
            context["comparison"] = presentation.comparison_tables(
                fiscal.compare(effects["a"], effects["b"]), selectors.jurisdiction_names()
            )
        return context

    return _render(request, "grants/compare.html", "results", build, params=COMPARE_PARAMS)
