"""Following: the button on the record's pages, the reader's list of follows, and unsubscribing from a digest."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from alerts import services
from alerts.forms import FollowTargetForm, FrequencyForm
from alerts.models import Follow
from alerts.tokens import read_token
from config.keys import stored_key
from config.redirects import posted_next

BUTTON = "alerts/_follow_button.html"


def _existing(user, target: dict) -> Follow | None:
    return Follow.objects.filter(user=user, **target).first()


def _button(request, form: FollowTargetForm, *, follow: Follow | None, error: str = "", status: int = 200):
    # htmx swaps only 2xx answers: a refusal it must show comes as 200, the message inside the region.
    if request.htmx:
        status = 200
    # Its forms send the reader back to the page the button is on, which an htmx answer knows from HX-Current-URL:
    # its own address (/alerts/follow, /alerts/follow/button?…) answers a post sent without htmx with a 405 or a bare fragment.
    back = request.htmx.current_url_abs_path if request.htmx else None
    context = {"kind": form.data.get("kind", ""), "key": form.data.get("key", ""), "follow": follow, "error": error,
               "next": back or ""}
    response = render(request, f"{BUTTON}#button", context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _first_error(form) -> str:
    return " ".join(message for errors in form.errors.values() for message in errors)


@require_safe
@login_required
def button(request):
    """The follow button as it stands for this reader (htmx swaps it in for the page's plain form)."""
    form = FollowTargetForm(request.GET)
    if not form.is_valid():
        return _button(request, form, follow=None, error=_first_error(form), status=400)
    return _button(request, form, follow=_existing(request.user, form.cleaned_data["target"]))


@require_POST
@login_required
def follow(request):
    form = FollowTargetForm(request.POST)
    if not form.is_valid():
        if request.htmx:
            return _button(request, form, follow=None, error=_first_error(form), status=400)
        messages.error(request, _first_error(form))
        return redirect(posted_next(request, reverse("alerts:follows")))
    target = form.cleaned_data["target"]
    try:
        created = services.follow_create(user=request.user, target=target,
                                         frequency=form.cleaned_data.get("frequency") or "", language=get_language())
    except services.AlreadyFollowing:
        created = _existing(request.user, target)
        note = _("You already follow this.")
    else:
        note = _("You follow %(what)s. Alerts go to %(email)s.") % {
            "what": created.target_label, "email": request.user.email or _("(no e-mail address on your account)")}
    if request.htmx:
        return _button(request, form, follow=created)
    messages.success(request, note)
    return redirect(posted_next(request, reverse("alerts:follows")))


@require_POST
@login_required
def unfollow(request, pk):
    follows = Follow.objects.filter(pk=pk, user=request.user)
    target = follows.first()
    services.follows_delete(actor=request.user, follows=follows)
    if request.htmx:
        form = FollowTargetForm(request.POST)
        return _button(request, form, follow=None)
    if target is not None:
        messages.success(request, _("You no longer follow %(what)s.") % {"what": target.target_label})
    return redirect(posted_next(request, reverse("alerts:follows")))


@login_required
def follows(request):
    """The reader's follows: how often, in which language, and a button to stop each."""
    if request.method == "POST":
        key = stored_key(Follow, request.POST.get("follow"))
        follow = None if key is None else get_object_or_404(Follow, pk=key, user=request.user)
        form = FrequencyForm(request.POST)
        if follow is None:
            messages.error(request, _("Choose one of your follows."))
        elif not form.is_valid():
            messages.error(request, _first_error(form))
        else:
            services.follow_update(user=request.user, follow=follow, **form.cleaned_data)
            messages.success(request, _("Alerts for %(what)s: %(how)s.") % {
                "what": follow.target_label, "how": follow.get_frequency_display()})
            return redirect("alerts:follows")
    rows = Follow.objects.filter(user=request.user).select_related("negotiation", "jurisdiction", "person")
    return render(request, "alerts/follows.html", {
        "follows": rows, "frequencies": Follow.Frequency.choices,
    })


@csrf_exempt  # the signed token is the authority; mail programs post here for one-click unsubscribe (RFC 8058)
def unsubscribe(request, token):
    try:
        user_id, follow_id = read_token(token)
    except signing.BadSignature:
        return render(request, "alerts/unsubscribe.html", {"invalid": True}, status=400)
    follows = Follow.objects.filter(user_id=user_id).select_related("negotiation", "jurisdiction", "person")
    if follow_id is not None:
        follows = follows.filter(pk=follow_id)
    if request.method == "POST":
        count = services.follows_delete(actor=None, follows=follows)
        return render(request, "alerts/unsubscribe.html", {"done": True, "count": count})
    if request.method not in ("GET", "HEAD"):
        return HttpResponseBadRequest(_("Open the link, then confirm."))
    return render(request, "alerts/unsubscribe.html", {"follows": list(follows), "all": follow_id is None})
