"""Offer pages: the list, one offer, and the form that logs or edits an offer (with a live fiscal preview).

The preview itself is a `grants` view (grants:preview) that the form posts to;
this module never imports `grants`.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from negotiations import selectors
from negotiations.cached_pages import render_page
from negotiations.forms import WithdrawOfferForm
from negotiations.offer_forms import OfferFilterForm, OfferForm
from negotiations.selectors import offers as offer_selectors
from negotiations.selectors import verdicts
from negotiations.services import offers as services

LIST_PAGE_SIZE = 50
FORM_TEMPLATE = "negotiations/offer_form.html"
# Posted by the form's live validation: check the input, save nothing, answer with the error slots.
VALIDATE_ONLY = "_validate"
TOUCHED = "_touched"
CHANGED = "_changed"  # the field the person changed last: a rule's live errors land on it


def _render_region(request, template: str, region: str, context: dict, **kwargs):
    """The whole page, or only `region` when htmx asks for it (but not when htmx restores history)."""
    if request.htmx and not request.htmx.history_restore_request:
        template = f"{template}#{region}"
    response = render(request, template, context, **kwargs)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_safe
def offer_list(request):
    def build():
        filters = OfferFilterForm(request.GET)
        filters.is_valid()
        offers = selectors.offer_list(**filters.filters())
        return {"filters": filters, "page": Paginator(offers, LIST_PAGE_SIZE).get_page(request.GET.get("page"))}

    region = "results" if request.htmx and not request.htmx.history_restore_request else None
    response = render_page(request, "negotiations/offer_list.html", build, region=region,
                           params=(*OfferFilterForm.base_fields, "page"))
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_safe
def offer_detail(request, slug):
    page = offer_selectors.offer_page(slug=slug, position_book=verdicts.position_book)
    if page is None:
        raise Http404(_("No offer is recorded under this address."))
    acceptance = verdicts.offer_acceptance(page.offer, book=page.book)
    return render(request, "negotiations/offer.html", {"page": page, "offer": page.offer, "acceptance": acceptance})


@login_required
@permission_required("negotiations.add_offer", raise_exception=True)
@require_http_methods(["GET", "HEAD", "POST"])
def offer_new(request):
    if request.method == "POST":
        form = OfferForm(request.POST)
        if VALIDATE_ONLY in request.POST:
            return _validation(request, form)
        if form.is_valid():
            try:
                offer = services.offer_create(actor=request.user, **form.own_fields(), terms=form.terms())
            except (services.InvalidOfferTerms, services.OfferSlugTaken, ValidationError) as error:
                _attach(form, error)
            else:
                messages.success(request, _("The offer “%(title)s” is recorded.") % {"title": offer.title})
                return redirect(offer)
        return render(request, FORM_TEMPLATE, _form_context(form), status=200)

    initial = OfferForm.initial_from(request.GET)
    source = None
    if request.GET.get("from"):
        source = offer_selectors.offer_for_form(slug=request.GET["from"])
        if source is not None:
            links = offer_selectors.offer_links(source)
            initial = {**OfferForm.initial_from_offer(source, links, as_new=True), **initial}
    if "negotiation" not in initial:
        negotiation = selectors.default_negotiation()
        if negotiation is not None:
            initial["negotiation"] = negotiation.slug
    form = OfferForm(initial=initial)
    context = _form_context(form, started_from=source)
    if request.htmx.trigger_name == "negotiation":
        # The negotiation select reloads its offers and meetings, and the "start from" list above the form.
        return render(request, FORM_TEMPLATE, context)
    return _render_region(request, FORM_TEMPLATE, "form-region", context)


@login_required
@permission_required("negotiations.change_offer", raise_exception=True)
@require_http_methods(["GET", "HEAD", "POST"])
def offer_edit(request, slug):
    offer = offer_selectors.offer_for_form(slug=slug)
    if offer is None:
        raise Http404(_("No offer is recorded under this address."))
    if request.method == "POST":
        form = OfferForm(request.POST, offer=offer)
        if VALIDATE_ONLY in request.POST:
            return _validation(request, form)
        if form.is_valid():
            try:
                offer = services.offer_update(
                    actor=request.user, offer=offer, expected_version=form.cleaned_data["version"] or 0,
                    **form.own_fields(), terms=form.terms(),
                )
            except services.OfferChangedMeanwhile as error:
                # Keep everything typed; the next save knowingly replaces the other person's version.
                data = request.POST.copy()
                data["version"] = error.current_version
                form = OfferForm(data, offer=offer)
                form.is_valid()
                form.add_error(None, str(error) + " " + _(
                    "Your changes are kept below. Compare them with the offer as it is now, "
                    "then save again to replace it with yours."
                ))
            except (services.InvalidOfferTerms, services.OfferSlugTaken, ValidationError) as error:
                _attach(form, error)
            else:
                messages.success(request, _("The offer “%(title)s” is saved.") % {"title": offer.title})
                return redirect(offer)
        return render(request, FORM_TEMPLATE, _form_context(form, offer=offer))
    initial = OfferForm.initial_from_offer(offer, offer_selectors.offer_links(offer))
    if request.GET.get("negotiation"):  # the form asks for another negotiation's offers and meetings
        initial["negotiation"] = request.GET["negotiation"]
    form = OfferForm(initial=initial, offer=offer)
    return render(request, FORM_TEMPLATE, _form_context(form, offer=offer))


@login_required
@permission_required("negotiations.change_offer", raise_exception=True)
@require_http_methods(["GET", "POST"])
def offer_withdraw(request, slug):
    offer = offer_selectors.offer_for_form(slug=slug)
    if offer is None:
        raise Http404(_("No offer is recorded under this address."))
    if request.method == "GET":  # the address in view after a refused post, opened again: the form, empty
        if offer.status == offer.Status.WITHDRAWN:
            return redirect(offer)
        return render(request, "negotiations/offer_withdraw.html", {"offer": offer, "form": WithdrawOfferForm()})
    form = WithdrawOfferForm(request.POST)
    if not form.is_valid():
        # Every problem at once: the date before the offer was tabled too, not only once the reason is given.
        for field, problem in services.withdrawal_problems(
                reason=request.POST.get("withdrawal_reason", ""), withdrawn_on=form.cleaned_data.get("withdrawn_on"),
                tabled_on=offer.tabled_on).items():
            if field not in form.errors and field in form.cleaned_data:
                form.add_error(field, problem)
    else:
        try:
            services.offer_withdraw(actor=request.user, offer=offer, reason=form.cleaned_data["withdrawal_reason"],
                                    withdrawn_on=form.cleaned_data["withdrawn_on"])
        except services.OfferAlreadyWithdrawn as error:
            messages.info(request, str(error))
        except ValidationError as error:
            for field, problems in error.message_dict.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
        else:
            messages.success(request, _("The offer “%(title)s” is marked withdrawn.") % {"title": offer.title})
    if form.errors:
        # What was typed stays, with the message by the field at fault.
        return render(request, "negotiations/offer_withdraw.html", {"offer": offer, "form": form}, status=400)
    return redirect(offer)


def _form_context(form: OfferForm, *, offer=None, started_from=None) -> dict:
    return {"form": form, "offer": offer, "started_from": started_from}


def _validation(request, form: OfferForm):
    """Validate without saving; answer with every error slot, filled only for what the person has touched."""
    form.is_valid()
    touched = {name for name in request.POST.get(TOUCHED, "").split(",") if name}
    if "*" in touched:  # the form was shown after a refused save: keep every error in view
        touched = set(form.fields)
    changed = request.POST.get(CHANGED, "")
    context = {**_form_context(form, offer=form.offer), "live_errors": form.live_errors(touched, changed)}
    return render(request, f"{FORM_TEMPLATE}#live-errors", context)


def _attach(form: OfferForm, error: Exception) -> None:
    """Show a service's refusal next to the fields it concerns."""
    if isinstance(error, services.InvalidOfferTerms):
        for problem in error.problems:
            form.add_term_error(problem.field, problem.message)
    elif isinstance(error, services.OfferSlugTaken):
        form.add_error("slug", str(error))
    else:
        form.add_service_error(error)
