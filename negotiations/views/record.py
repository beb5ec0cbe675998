"""Pages of the record: meetings, people, sources, statements, positions, and search."""

from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from config.numbers import format_date
from config.redirects import posted_next
from negotiations import search as record_search
from negotiations import selectors
from negotiations.cached_pages import render_page
from negotiations.forms import (
    PositionForm,
    RetractionForm,
    SearchForm,
    StatementFilterForm,
    StatementForm,
    condition_formset,
)
from negotiations.models import Jurisdiction, Statement
from negotiations.selectors import record
from negotiations.services import record as services

LIST_PAGE_SIZE = 50
STATEMENT_PAGE_SIZE = 25
# The session key where a refused retraction waits for the statement list (statement_retract, statement_list).
REFUSED_RETRACTION = "refused_retraction"


def _render_region(request, template: str, region: str, context: dict):
    """The whole page, or only `region` when htmx asks for it (but not when htmx restores history)."""
    if request.htmx and not request.htmx.history_restore_request:
        template = f"{template}#{region}"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_safe
def meeting_list(request):
    return render_page(request, "negotiations/meeting_list.html",
                       lambda: {"page": Paginator(record.meeting_list(), LIST_PAGE_SIZE).get_page(request.GET.get("page"))},
                       params=("page",))


@require_safe
def meeting_detail(request, slug):
    def build():
        meeting = record.meeting_detail(slug=slug)
        if meeting is None:
            raise Http404(_("No meeting is recorded under this address."))
        return {"meeting": meeting}

    return render_page(request, "negotiations/meeting.html", build, params=())


@require_safe
def person_list(request):
    return render_page(request, "negotiations/person_list.html",
                       lambda: {"page": Paginator(record.person_list(), LIST_PAGE_SIZE).get_page(request.GET.get("page"))},
                       params=("page",))


@require_safe
def person_detail(request, slug):
    def build():
        person = record.person_detail(slug=slug)
        if person is None:
            raise Http404(_("No person is recorded under this address."))
        return {"person": person}

    return render_page(request, "negotiations/person.html", build, params=())


@require_safe
def source_list(request):
    return render_page(request, "negotiations/source_list.html",
                       lambda: {"page": Paginator(record.source_list(), LIST_PAGE_SIZE).get_page(request.GET.get("page"))},
                       params=("page",))


@require_safe
def source_detail(request, slug):
    def build():
        source = record.source_detail(slug=slug)
        if source is None:
            raise Http404(_("No source is recorded under this address."))
        return {"source": source}

    return render_page(request, "negotiations/source.html", build, params=())


@require_safe
def statement_list(request):
    can_retract = request.user.has_perm("negotiations.change_statement")
    # A retraction just refused comes back once, under its statement: its form open, the note as typed, and why.
    refused = request.session.pop(REFUSED_RETRACTION, None) if can_retract else None

    def build():
        filters = StatementFilterForm(request.GET)
        filters.is_valid()
        statements = record.statement_list(**filters.filters())
        page = Paginator(statements, STATEMENT_PAGE_SIZE).get_page(request.GET.get("page"))
        return {"filters": filters, "page": page, "retraction": refused and _refused_retraction(refused, page)}

    region = "results" if request.htmx and not request.htmx.history_restore_request else None
    response = render_page(
        request, "negotiations/statement_list.html", build, region=region,
        params=(*StatementFilterForm.base_fields, "page"),
        # An editor's list has a "Retract" form with their CSRF token under each statement.
        cacheable=not can_retract,
    )
    patch_vary_headers(response, ("HX-Request",))
    return response


@login_required
@permission_required("negotiations.add_statement", raise_exception=True)
def statement_new(request):
    if request.method == "POST":
        form = StatementForm(request.POST)
        if form.is_valid():
            try:
                statement = services.statement_record(actor=request.user, **form.cleaned_data)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("The statement by %(speaker)s is recorded.")
                                 % {"speaker": statement.speaker.name})
                if statement.jurisdiction is not None:
                    return redirect(statement.jurisdiction)
                return redirect(statement.speaker)
    else:
        form = StatementForm(initial=_with_default_negotiation(StatementForm.initial_from(request.GET)))
    return render(request, "negotiations/statement_form.html", {"form": form})


@login_required
@permission_required("negotiations.add_position", raise_exception=True)
def position_new(request):
    pt_codes = list(Jurisdiction.objects.exclude(kind=Jurisdiction.Kind.FEDERAL).values_list("code", flat=True))
    if request.method == "POST":
        form = PositionForm(request.POST)
        checks = condition_formset(request.POST, pt_codes=pt_codes)
        if form.is_valid() & checks.is_valid():
            try:
                position = services.position_record(actor=request.user, **form.cleaned_data,
                                                    checks=checks.conditions())
            except services.PositionExists as error:
                form.add_error(None, str(error))
            except ValidationError as error:
                by_field = dict(error.message_dict) if hasattr(error, "error_dict") else {NON_FIELD_ERRORS: error.messages}
                checks.condition_errors = by_field.pop("checks", [])
                form.add_error(None, ValidationError(by_field or checks.condition_errors))
            else:
                messages.success(request, _("The position of %(jurisdiction)s as of %(date)s is recorded.")
                                 % {"jurisdiction": position.jurisdiction.name,
                                    "date": format_date(position.as_of)})
                return redirect(position.jurisdiction)
    else:
        form = PositionForm(initial=_with_default_negotiation(PositionForm.initial_from(request.GET)))
        checks = condition_formset(pt_codes=pt_codes)
    return render(request, "negotiations/position_form.html", {"form": form, "checks": checks})


def _with_default_negotiation(initial: dict) -> dict:
    if "negotiation" not in initial:
        negotiation = selectors.default_negotiation()
        if negotiation is not None:
            initial["negotiation"] = negotiation.slug
    return initial


@require_POST
@login_required
@permission_required("negotiations.change_statement", raise_exception=True)
def statement_retract(request, pk):
    statement = get_object_or_404(Statement, pk=pk)
    form = RetractionForm(request.POST, statement_pk=statement.pk)
    back = posted_next(request, reverse("negotiations:statement_list"))
    problems = []
    if form.is_valid():
        try:
            services.statement_retract(actor=request.user, statement=statement, note=form.cleaned_data["note"])
        except services.StatementAlreadyRetracted as error:
            messages.error(request, str(error))
        except ValidationError as error:
            # (each message once: a note is checked as `retraction_note` and as its language's column)
            problems = list(dict.fromkeys(error.messages))
        else:
            messages.success(request, _("The statement is marked as retracted; it stays in the record."))
    if form.errors or problems:
        # Refused, the note is kept, whole, for the statement list it was typed in (the form lives there only), with
        # that list's filters and page: a redirect, so that the list's links and reloading it work as ever. Its
        # address names the error summary heading the statement, which the browser scrolls to and focuses, with
        # JavaScript or not.
        request.session[REFUSED_RETRACTION] = {
            "statement_pk": statement.pk, "note": request.POST.get("note", ""), "problems": problems,
        }
        query = urlsplit(back).query
        return HttpResponseRedirect(
            f"{reverse('negotiations:statement_list')}{'?' if query else ''}{query}#error-summary"
        )
    return HttpResponseRedirect(back)


def _refused_retraction(refused: dict, page) -> dict:
    """The refused retraction form for the list's template, and its statement when this page of the list does not
    show it (statements recorded meanwhile moved it to another page): the note is never lost from sight."""
    form = RetractionForm.refused(**refused)
    if any(statement.pk == form.statement_pk for statement in page.object_list):
        elsewhere = None
    else:
        elsewhere = record.statement_list().filter(pk=form.statement_pk).first()
    return {"form": form, "statement_pk": form.statement_pk, "elsewhere": elsewhere}


@require_safe
def search(request):
    form = SearchForm(request.GET)
    results = None
    if form.is_valid() and form.cleaned_data["q"]:
        results = record_search.search_record(query=form.cleaned_data["q"])
    return _render_region(request, "negotiations/search.html", "results", {"form": form, "results": results})
