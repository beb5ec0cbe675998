"""Writes of the alerts app: following, changing how often, unfollowing (each one transaction)."""

from django.db import IntegrityError, transaction

from alerts.models import Follow


class AlreadyFollowing(Exception):
    """The reader follows this already."""


def follow_create(*, user, target: dict, frequency: str, language: str) -> Follow:
    """Follow `target` ({"negotiation": obj} or {"jurisdiction": ...}, {"person": ...}, {"query": "words"})."""
    follow = Follow(user=user, frequency=frequency or Follow.Frequency.IMMEDIATE, language=language, **target)
    follow._history_user = user
    follow.full_clean(validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            follow.save()
    except IntegrityError:
        raise AlreadyFollowing() from None
    return follow


def follow_update(*, user, follow: Follow, frequency: str, language: str) -> Follow:
    with transaction.atomic():
        follow.frequency = frequency
        follow.language = language
        follow._history_user = user
        follow.full_clean(validate_unique=False, validate_constraints=False)
        follow.save()
    return follow


def follows_delete(*, actor, follows) -> int:
    """Stop the given follows (a queryset); how many there were. `actor` is None for a signed link."""
    count = 0
    with transaction.atomic():
        for follow in follows.select_for_update(of=("self",)):
            follow._history_user = actor
            follow.delete()
            count += 1
    return count
