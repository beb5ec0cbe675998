"""A reader's digest e-mail: what changed among what they follow, in their language.

The fiscal headline of a new offer is computed here, when the digest is written, from the offer's
terms (grants.headline): `negotiations` records the offer and knows nothing of money.
"""

from collections import Counter
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext

from alerts.models import AlertEvent, Delivery, Follow
from alerts.tokens import unsubscribe_token
from grants.headline import Headline, headline, offers_by_pk
from negotiations.models import Jurisdiction, Stance


@dataclass(frozen=True)
class DigestItem:
    event: AlertEvent
    follow: Follow | None
    url: str
    headline: Headline | None = None
    previous_stance_label: str = ""


def _absolute(path: str) -> str:
    return f"{settings.ALERTS_SITE_URL.rstrip('/')}{path}"


def _events(deliveries: list[Delivery]) -> dict[int, AlertEvent]:
    return AlertEvent.objects.select_related(
        "negotiation", "jurisdiction", "statement__speaker", "statement__source", "statement__jurisdiction",
        "position__jurisdiction", "position__negotiation", "offer",
    ).prefetch_related("offer__tabled_by").in_bulk([delivery.event_id for delivery in deliveries])


def _url(event: AlertEvent) -> str:
    if event.statement_id:
        return _absolute(f"{event.statement.source.get_absolute_url()}#statement-{event.statement_id}")
    if event.position_id:
        return _absolute(event.position.jurisdiction.get_absolute_url())
    return _absolute(event.offer.get_absolute_url())


def _headline_code(follow: Follow | None) -> str | None:
    """A reader following a province or territory sees an offer's effect on it; others, the country's."""
    if follow and follow.jurisdiction_id and follow.jurisdiction.kind != Jurisdiction.Kind.FEDERAL:
        return follow.jurisdiction.code
    return None


def _language(follows: list[Follow]) -> str:
    """The language of the follows the digest tells of: the one most of them chose (the latest chosen, on a tie).
    A reader who follows Ontario in English and a search in French hears of Ontario in English."""
    if not follows:
        return settings.LANGUAGE_CODE
    chosen = Counter(follow.language for follow in follows)
    return max(follows, key=lambda follow: (chosen[follow.language], follow.created_at)).language


def digest_message(*, user, deliveries: list[Delivery], message_id: str) -> EmailMultiAlternatives | None:
    """The digest of `deliveries` for `user`, or None when none of their events is left to tell or the
    reader has no e-mail address (the follows page warns them)."""
    if not user.email:
        return None
    events = _events(deliveries)
    follows = {follow.pk: follow for follow in Follow.objects.select_related(
        "negotiation", "jurisdiction", "person").filter(user=user)}
    offers = offers_by_pk(event.offer_id for event in events.values() if event.offer_id)
    told = [follows[delivery.follow_id] for delivery in deliveries
            if delivery.follow_id in follows and delivery.event_id in events]
    language = _language(told or list(follows.values()))
    with translation.override(language):
        items = []
        for delivery in deliveries:
            event = events.get(delivery.event_id)
            if event is None:
                continue
            follow = follows.get(delivery.follow_id)
            offer = offers.get(event.offer_id) if event.offer_id else None
            items.append(DigestItem(
                event=event, follow=follow, url=_url(event),
                headline=headline(offer, code=_headline_code(follow)) if offer else None,
                previous_stance_label=str(Stance(event.previous_stance).label) if event.previous_stance else "",
            ))
        if not items:
            return None
        context = {
            "user": user,
            "items": items,
            "follows": sorted(follows.values(), key=lambda follow: follow.created_at),
            "unsubscribe_urls": {
                pk: _absolute(reverse("alerts:unsubscribe", args=[unsubscribe_token(user_id=user.pk, follow_id=pk)]))
                for pk in follows
            },
            "unsubscribe_all_url": _absolute(reverse("alerts:unsubscribe", args=[unsubscribe_token(user_id=user.pk)])),
            "follows_url": _absolute(reverse("alerts:follows")),
        }
        subject = ngettext(
            "FPT Tracker: %(count)d change in what you follow",
            "FPT Tracker: %(count)d changes in what you follow",
            len(items),
        ) % {"count": len(items)}
        message = EmailMultiAlternatives(
            subject=subject,
            body=render_to_string("alerts/digest.txt", context),
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[user.email],
            headers={
                "Message-ID": message_id,
                "List-Unsubscribe": f"<{context['unsubscribe_all_url']}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                "Content-Language": language,
            },
        )
        message.attach_alternative(render_to_string("alerts/digest.html", context), "text/html")
    return message
