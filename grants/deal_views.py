"""Pages of where the deal is, on the fiscal side: what every offer would cost one government.

The jurisdiction page (negotiations) loads the region here into itself, as the offer page loads
the fiscal summary: ``negotiations`` never imports ``grants``.
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from config.keys import stored_key
from config.numbers import colon, format_date, format_fiscal_year, format_percent, numbers
from grants import deal, fiscal, presentation, scenarios, selectors
from grants.forms import ScenarioForm
from grants.models import Scenario
from grants.views import _render
from negotiations.models import Jurisdiction, Negotiation, Offer
from negotiations.selectors import verdicts
from negotiations.term_basis import term_label, term_value_text
from negotiations.terms import term_paths, term_value


@require_safe
def jurisdiction_offers(request, code):
    """Every offer of the negotiation (``?negotiation=``, else all) as it falls on one P/T: a region the jurisdiction's
    page loads into itself, or a page of its own for the link it shows without JavaScript."""

    def build():
        jurisdiction = get_object_or_404(Jurisdiction, code=code.upper())
        slug = request.GET.get("negotiation", "")
        negotiation = Negotiation.objects.filter(slug=slug).first() if slug else None
        context = {"jurisdiction": jurisdiction, "negotiation": negotiation, "costs": None}
        if slug and negotiation is None:
            context["problem"] = slug
            context["status"] = 400
        elif not jurisdiction.is_federal:
            context["costs"] = deal.costs_to_jurisdiction(jurisdiction=jurisdiction, negotiation=negotiation)
        return context

    return _render(request, "grants/jurisdiction_offers.html", "region", build, params=("negotiation",))


# --- scenarios ------------------------------------------------------------------------------------

SCENARIOS_PER_PAGE = 50


@require_safe
def scenario_list(request):
    """Every saved scenario, newest first: what-ifs, not part of the record."""
    scenarios = Scenario.objects.select_related("author", "negotiation").order_by("-created", "-pk")
    return render(request, "grants/scenario_list.html",
                  {"page": Paginator(scenarios, SCENARIOS_PER_PAGE).get_page(request.GET.get("page"))})


def _comparable(scenario: Scenario) -> list[tuple[str, str]]:
    """What a scenario can be compared with: every offer of its negotiation and every other scenario."""
    offers = [(f"offer:{slug}", f"{format_date(tabled_on)} · {title}") for slug, title, tabled_on in
              Offer.objects.filter(negotiation_id=scenario.negotiation_id).order_by("-tabled_on")
              .values_list("slug", "title", "tabled_on")]
    others = [(f"scenario:{pk}", _("Scenario: %(title)s") % {"title": title}) for pk, title in
              Scenario.objects.exclude(pk=scenario.pk).order_by("-created").values_list("pk", "title")[:200]]
    return offers + others


@require_safe
def scenario_detail(request, pk):
    """One scenario: its terms, who would sign, its fiscal effect; to share, compare, or record as an offer."""
    scenario = get_object_or_404(Scenario.objects.select_related("author", "negotiation"), pk=pk)
    context = {"scenario": scenario, "terms": scenario_term_rows(scenario), "table": None, "problems": (),
               "acceptance": scenarios.scenario_acceptance(scenario), "comparable": _comparable(scenario),
               "record_url": f"{reverse('negotiations:offer_new')}?{urlencode(deal.record_as_offer_query(scenario))}"}
    try:
        effect = scenarios.scenario_effect(scenario)
    except (fiscal.InvalidTerms, fiscal.InvalidScenario) as error:
        context["problems"] = [getattr(e, "message", str(e)) for e in getattr(error, "errors", [error])]
    else:
        context["table"] = deal.effect_table(effect, selectors.jurisdiction_names())
    return render(request, "grants/scenario.html", context)


def scenario_term_rows(scenario: Scenario) -> list[tuple[str, str, str]]:
    """Each term's path, name and value in words, as the scenario page lists them."""
    terms = scenarios.scenario_terms(scenario)
    names = dict(Jurisdiction.objects.exclude(kind=Jurisdiction.Kind.FEDERAL).values_list("code", "name"))
    write = numbers()
    rows = []
    for path in term_paths(list(names)):
        value = term_value(terms, path)
        if path == "phase_in":
            text = "; ".join(f"{colon(format_fiscal_year(year))} {write.percent(fraction)}" for year, fraction in value) or "—"
        elif path.startswith("sources.") and not value:
            continue
        else:
            text = term_value_text(path, value)
        rows.append((path, term_label(path, names), text))
    return rows


# The offer form's "Save as scenario" button posts this name; the scenario's own fields (an offer form's title and date
# stand for them when they are filled in).
HANDED_OVER = "_from_offer"
SCENARIO_OWN_FIELDS = ("title", "tabled_on", "fiscal_year")


@login_required
@permission_required("negotiations.add_offer", raise_exception=True)
@require_http_methods(["GET", "HEAD", "POST"])
def scenario_new(request):
    """Save a what-if: the offer form posts itself here with "Save as scenario", or this page's own form."""
    if request.method == "POST":
        form = ScenarioForm(request.POST)
        if form.is_valid():
            try:
                scenario = scenarios.scenario_create(actor=request.user, terms=form.terms(), **form.scenario())
            except scenarios.InvalidScenarioTerms as error:
                for problem in error.problems:
                    form.add_term_error(problem.field, problem.message)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("The scenario “%(title)s” is saved. It is not part of the record.")
                                 % {"title": scenario.title})
                return redirect(scenario)
        if HANDED_OVER in request.POST:
            # From the offer form, its title or date left empty: asked for on this form, not refused before it is seen.
            for name in SCENARIO_OWN_FIELDS:
                if not request.POST.get(name, "").strip():
                    form.errors.pop(name, None)
        return render(request, "grants/scenario_form.html", {"form": form}, status=200)
    initial = {"tabled_on": request.GET.get("tabled_on", "")}
    return render(request, "grants/scenario_form.html", {"form": ScenarioForm(initial=initial)})


@require_safe
def scenario_compare(request, pk):
    """A scenario against an offer or another scenario (``?with=offer:SLUG`` or ``scenario:ID``)."""
    scenario = get_object_or_404(Scenario.objects.select_related("author", "negotiation"), pk=pk)
    other_key = request.GET.get("with", "")
    kind, _sep, key = other_key.partition(":")
    other = None
    if kind == "offer":
        other = selectors.offers_with_terms().filter(slug=key).first()
    elif kind == "scenario" and (number := stored_key(Scenario, key)) is not None:
        other = Scenario.objects.select_related("negotiation").filter(pk=number).first()
    context = {"scenario": scenario, "other": other, "other_kind": kind, "comparable": _comparable(scenario),
               "chosen": other_key, "comparison": None, "problems": [], "error": None}
    if other is None:
        if other_key:
            context["error"] = _("“%(key)s” is neither an offer nor a saved scenario.") % {"key": other_key}
        else:  # nothing chosen yet: a prompt, not an error
            context["prompt"] = _("Choose an offer or a scenario to compare with.")
        return render(request, "grants/scenario_compare.html", context, status=400 if other_key else 200)
    try:
        # Both sides under the scenario's own assumptions (its employer participation and fiscal year): an offer at
        # full scale against a scenario in its second year compared two different years without saying so.
        assumptions = scenarios.scenario_assumptions(scenario)
        context["assumptions"] = {"fiscal_year": assumptions.fiscal_year,
                                  "participation": format_percent(assumptions.participation)}
        mine = scenarios.scenario_effect(scenario, assumptions)
        if kind == "offer":
            theirs = selectors.fiscal_effect(other, assumptions)
            context["other_acceptance"] = verdicts.offer_acceptance(other)
            context["other_url"] = other.get_absolute_url()
        else:
            theirs = scenarios.scenario_effect(other, assumptions)
            context["other_acceptance"] = scenarios.scenario_acceptance(other)
            context["other_url"] = other.get_absolute_url()
        context["comparison"] = presentation.comparison_tables(fiscal.compare(theirs, mine),
                                                               selectors.jurisdiction_names())
    except (fiscal.InvalidTerms, fiscal.InvalidScenario, ValueError) as error:
        context["problems"] = [getattr(e, "message", str(e)) for e in getattr(error, "errors", [error])]
    context["acceptance"] = scenarios.scenario_acceptance(scenario)
    return render(request, "grants/scenario_compare.html", context)


@require_safe
def negotiation_distance(request, slug):
    """How much more each P/T must find under Ottawa's latest offer than under its own counter-proposal:
    a region the negotiation page loads into itself, or a page of its own for the link it shows without JavaScript."""

    def build():
        negotiation = get_object_or_404(Negotiation, slug=slug)
        _result, money = deal.money_distance(negotiation.pk)
        write = numbers()
        rows, total = [], None
        if money is not None and money.problem is None:
            rows = [(side, write.money(side.federal_need), write.money(side.provinces_need),
                     write.change("provinces_need", side.more_to_find))
                    for side in (*money.by_jurisdiction, money.national)]
            rows, total = rows[:-1], rows[-1]
        return {"negotiation": negotiation, "money": money, "rows": rows, "total": total}

    return _render(request, "grants/negotiation_distance.html", "region", build, params=())
