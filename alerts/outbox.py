"""The outbox: an AlertEvent row written in the very transaction that records a change.

Statements, positions and offers are written by the services, the admin, the loader and the API
alike; a receiver of `post_save` (created rows only) is the one place all of them pass through, and
it runs inside the writer's transaction, so the event commits or rolls back with the change (a
transactional outbox). Rows written in bulk without signals (the scale generator) and fixture loads
(`raw`) make no events: they are not news.
"""

from django.db.models.signals import post_save

from alerts.models import AlertEvent
from negotiations.models import Offer, Position, Statement


def statement_saved(sender, instance: Statement, created=False, raw=False, **kwargs) -> None:
    if created and not raw:
        AlertEvent.objects.create(
            kind=AlertEvent.Kind.STATEMENT, negotiation_id=instance.negotiation_id,
            jurisdiction_id=instance.jurisdiction_id, person_id=instance.speaker_id, statement=instance,
        )


def position_saved(sender, instance: Position, created=False, raw=False, **kwargs) -> None:
    """A new position is news when its stance differs from the jurisdiction's previous one (or is its first)."""
    if not created or raw:
        return
    previous = (
        Position.objects.filter(negotiation_id=instance.negotiation_id, jurisdiction_id=instance.jurisdiction_id,
                                as_of__lt=instance.as_of)
        .order_by("-as_of", "-pk").values_list("stance", flat=True).first()
    )
    if previous == instance.stance:
        return
    AlertEvent.objects.create(
        kind=AlertEvent.Kind.STANCE_CHANGE, negotiation_id=instance.negotiation_id,
        jurisdiction_id=instance.jurisdiction_id, position=instance, previous_stance=previous or "",
    )


def offer_saved(sender, instance: Offer, created=False, raw=False, **kwargs) -> None:
    # Who tabled it is set after this save (a many-to-many): it is read when the event is fanned out.
    if created and not raw:
        AlertEvent.objects.create(kind=AlertEvent.Kind.OFFER, negotiation_id=instance.negotiation_id, offer=instance)


def connect_signals() -> None:
    post_save.connect(statement_saved, sender=Statement, dispatch_uid="alerts-statement")
    post_save.connect(position_saved, sender=Position, dispatch_uid="alerts-position")
    post_save.connect(offer_saved, sender=Offer, dispatch_uid="alerts-offer")
