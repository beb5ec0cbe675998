"""Article import pages: take an article in, review what it proposes, commit the accepted quotes."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from negotiations import selectors
from negotiations.import_forms import ArticleForm, ProposalForm, SourceForm
from negotiations.import_words import date_basis_text, repairs_text, warning_text
from negotiations.models import ArticleImport, Jurisdiction, Person, ProposedStatement
from negotiations.services import imports as services

PERMISSION = "negotiations.add_statement"  # the statement form's permission
DECISIONS = {"accept": ProposedStatement.Decision.ACCEPTED, "reject": ProposedStatement.Decision.REJECTED,
             "edit": ProposedStatement.Decision.EDITED, "reopen": ProposedStatement.Decision.PENDING}


@login_required
@permission_required(PERMISSION, raise_exception=True)
def import_new(request):
    if request.method == "POST":
        form = ArticleForm(request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data
            try:
                article_import, created = services.article_import_create(
                    actor=request.user, data=data["data"], negotiation=data["negotiation"],
                    filename=data["filename"], published=data["published"], url=data["url"])
            except services.TooManyQuotes as error:
                form.add_error(form.article_field, str(error))
            else:
                if created:
                    messages.success(request, _("The article is read: review what it proposes."))
                else:
                    messages.info(request, _("This article was imported before: here is that import."))
                return redirect(article_import)
    else:
        negotiation = selectors.default_negotiation()
        form = ArticleForm(initial={"negotiation": negotiation.slug} if negotiation else {})
    recent = ArticleImport.objects.only("pk", "title", "outlet", "filename", "status", "created_at")[:10]
    return render(request, "negotiations/import_form.html", {"form": form, "recent": recent})


def _proposal_context(proposal, text, form):
    """The passage a quote came from, cut in three so the template can mark the quote."""
    start, end = proposal.passage_start, max(proposal.passage_end, proposal.quote_end)
    return {
        "proposal": proposal, "form": form, "date_basis": date_basis_text(proposal.date_basis),
        "before": text[start:proposal.quote_start], "marked": text[proposal.quote_start:proposal.quote_end],
        "after": text[proposal.quote_end:end],
    }


def _review_context(article_import, *, source_form=None, bound=None):
    people = list(Person.objects.only("slug", "name"))
    jurisdictions = list(Jurisdiction.objects.all())
    items = []
    for proposal in article_import.proposals.select_related("speaker", "jurisdiction", "statement"):
        form = bound if bound is not None and bound.instance.pk == proposal.pk else \
            ProposalForm(instance=proposal, people=people, jurisdictions=jurisdictions)
        items.append(_proposal_context(proposal, article_import.text, form))
    counts = {decision: sum(1 for item in items if item["proposal"].decision == decision)
              for decision in ProposedStatement.Decision.values}
    return {"article_import": article_import, "source_form": source_form or SourceForm(instance=article_import),
            "items": items, "counts": counts, "warnings": [warning_text(warning) for warning in article_import.warnings],
            "repairs": repairs_text(article_import.repairs)}


def _counts(article_import_id: int) -> dict:
    """How many proposals of the import are in each state (for the counts htmx updates out of band)."""
    rows = ProposedStatement.objects.filter(article_import_id=article_import_id).values("decision") \
        .annotate(n=Count("pk")).values_list("decision", "n")
    counts = dict.fromkeys(ProposedStatement.Decision.values, 0)
    counts.update(rows)
    return counts


@login_required
@permission_required(PERMISSION, raise_exception=True)
def import_review(request, pk):
    article_import = get_object_or_404(ArticleImport.objects.select_related("source", "negotiation"), pk=pk)
    return render(request, "negotiations/import_review.html", _review_context(article_import))


@require_POST
@login_required
@permission_required(PERMISSION, raise_exception=True)
def import_source(request, pk):
    article_import = get_object_or_404(ArticleImport, pk=pk)
    form = SourceForm(request.POST, instance=article_import)
    saved = False
    if form.is_valid():
        try:
            services.source_update(actor=request.user, article_import=article_import, **form.cleaned_data)
            saved = True
        except services.ImportAlreadyCommitted as error:
            if not request.htmx:
                messages.error(request, str(error))
                return redirect(article_import)
            form.add_error(None, str(error))
    if request.htmx:
        response = render(request, "negotiations/import_review.html#source",
                          {"article_import": article_import, "source_form": form, "saved": saved})
        patch_vary_headers(response, ("HX-Request",))
        return response
    if saved:
        messages.success(request, _("The source is saved."))
        return redirect(article_import)
    return render(request, "negotiations/import_review.html", _review_context(article_import, source_form=form))


@require_POST
@login_required
@permission_required(PERMISSION, raise_exception=True)
def proposal_decide(request, pk, proposal_pk):
    """Accept, edit or reject one proposal; htmx gets the proposal's region back, a plain post the page."""
    proposal = get_object_or_404(ProposedStatement.objects.select_related("article_import", "speaker", "jurisdiction"),
                                 pk=proposal_pk, article_import_id=pk)
    decision = DECISIONS.get(request.POST.get("decision", ""))
    form = ProposalForm(request.POST, instance=proposal)
    error = ""
    try:
        if decision is None:
            error = _("Choose accept, save as edited, or reject.")
        elif decision in (ProposedStatement.Decision.REJECTED, ProposedStatement.Decision.PENDING):
            # Rejecting keeps the proposal as it was; the edits posted with it are not saved.
            proposal.refresh_from_db()
            proposal = services.proposal_decide(actor=request.user, proposal=proposal, decision=decision)
            form = ProposalForm(instance=proposal)
        elif form.is_valid():
            if decision == ProposedStatement.Decision.ACCEPTED and form.has_changed():
                decision = ProposedStatement.Decision.EDITED
            proposal = services.proposal_decide(actor=request.user, proposal=form.instance, decision=decision)
            form = ProposalForm(instance=proposal)
        else:
            error = _("This quote is not accepted yet: please correct what is marked.")
    except ValidationError as failure:
        error = " ".join(failure.messages)
    if request.htmx:
        context = _proposal_context(proposal, proposal.article_import.text, form)
        context.update(error=error, oob=True, counts=_counts(proposal.article_import_id))
        response = render(request, "negotiations/import_review.html#proposal", context)
        patch_vary_headers(response, ("HX-Request",))
        return response
    if error:
        messages.error(request, error)
        return render(request, "negotiations/import_review.html", _review_context(proposal.article_import, bound=form))
    return redirect(reverse("negotiations:import_review", args=[pk]) + f"#proposal-{proposal.pk}")


@require_POST
@login_required
@permission_required(PERMISSION, raise_exception=True)
def import_commit(request, pk):
    article_import = get_object_or_404(ArticleImport, pk=pk)
    try:
        statements = services.article_import_commit(actor=request.user, article_import=article_import)
    except services.ImportAlreadyCommitted as error:
        messages.error(request, str(error))
        return redirect(article_import)
    except ValidationError as error:
        messages.error(request, _("Nothing is recorded yet: %(problems)s") % {"problems": " ".join(error.messages)})
        return redirect(article_import)
    article_import.refresh_from_db()
    if statements:
        messages.success(request, ngettext("%(count)s statement is recorded.", "%(count)s statements are recorded.",
                                           len(statements)) % {"count": len(statements)})
    else:  # (a second click: the first recorded them)
        messages.info(request, _("No accepted quote is waiting to be recorded: those accepted are in the record."))
    if article_import.source is not None:
        return redirect(article_import.source)
    return redirect(article_import)
