"""Following the record without watching it: who follows what, the outbox of changes, and deliveries.

`Follow` is a reader's subscription (exactly one of a negotiation, a jurisdiction, a person or a saved
search). `AlertEvent` is the outbox: one row per change worth telling (a new statement, a stance
change, a new offer), written in the same transaction as the change (alerts.outbox), so it exists
exactly when the change committed. `Delivery` is one event owed to one reader; `send_alerts` fans
events out into deliveries and sends each reader's due deliveries as one digest (alerts.sending).

The two queue tables keep no simple-history: their rows are only appended and then stamped
(`fanned_out`, `sent_at`, `batch`), and those stamps are their audit trail. A follow has its history.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from negotiations.models import Jurisdiction, Negotiation, Offer, Person, Position, Stance, Statement

MAX_QUERY_LENGTH = 200

_TARGETS = ("negotiation", "jurisdiction", "person")


def _only(target: str) -> Q:
    """`target` set and every other target empty."""
    q = ~Q(query="") if target == "query" else Q(**{f"{target}__isnull": False}) & Q(query="")
    for other in _TARGETS:
        if other != target:
            q &= Q(**{f"{other}__isnull": True})
    return q


class Follow(models.Model):
    class Frequency(models.TextChoices):
        IMMEDIATE = "immediate", _("as it happens")
        DAILY = "daily", _("once a day")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows", verbose_name=_("reader")
    )
    negotiation = models.ForeignKey(
        Negotiation, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("negotiation")
    )
    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
        verbose_name=_("jurisdiction"),
    )
    person = models.ForeignKey(
        Person, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("person")
    )
    query = models.CharField(_("saved search"), max_length=MAX_QUERY_LENGTH, blank=True)
    frequency = models.CharField(_("how often"), max_length=10, choices=Frequency.choices,
                                 default=Frequency.IMMEDIATE)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES,
                                default=settings.LANGUAGE_CODE)
    created_at = models.DateTimeField(_("followed since"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = _("follows")
        ordering = ["user", "created_at"]
        verbose_name = _("follow")
        constraints = [
            models.CheckConstraint(
                condition=_only("negotiation") | _only("jurisdiction") | _only("person") | _only("query"),
                name="follow_exactly_one_target",
                violation_error_message=_("A follow is of one negotiation, jurisdiction, person or search."),
            ),
            *(
                models.UniqueConstraint(fields=["user", target], condition=Q(**{f"{target}__isnull": False}),
                                        name=f"follow_{target}_once")
                for target in _TARGETS
            ),
            models.UniqueConstraint(fields=["user", "query"], condition=~Q(query=""), name="follow_query_once"),
        ]

    def __str__(self):
        return f"{self.user}: {self.target_label}"

    @property
    def target_label(self) -> str:
        if self.negotiation_id:
            return str(self.negotiation)
        if self.jurisdiction_id:
            return self.jurisdiction.name
        if self.person_id:
            return str(self.person)
        return _("search “%(query)s”") % {"query": self.query}

    @property
    def target_url(self) -> str:
        if self.negotiation_id:
            return self.negotiation.get_absolute_url()
        if self.jurisdiction_id:
            return self.jurisdiction.get_absolute_url()
        if self.person_id:
            return self.person.get_absolute_url()
        return f"{reverse('negotiations:search')}?{urlencode({'q': self.query})}"


class AlertEvent(models.Model):
    """The outbox: one change worth telling followers about."""

    class Kind(models.TextChoices):
        STATEMENT = "statement", _("new statement")
        STANCE_CHANGE = "stance_change", _("stance change")
        OFFER = "offer", _("new offer")

    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    negotiation = models.ForeignKey(Negotiation, on_delete=models.CASCADE, related_name="+", verbose_name=_("negotiation"))
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                                     verbose_name=_("jurisdiction"))
    person = models.ForeignKey(Person, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                               verbose_name=_("person"))
    statement = models.ForeignKey(Statement, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                                  verbose_name=_("statement"))
    position = models.ForeignKey(Position, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                                 verbose_name=_("position"))
    offer = models.ForeignKey(Offer, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                              verbose_name=_("offer"))
    previous_stance = models.CharField(_("previous stance"), max_length=12, choices=Stance.choices, blank=True)
    created_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    fanned_out = models.BooleanField(_("deliveries made"), default=False)

    class Meta:
        verbose_name_plural = _("alert events")
        ordering = ["pk"]
        verbose_name = _("alert event")
        indexes = [models.Index(fields=["fanned_out", "id"], name="alert_event_pending")]

    def __str__(self):
        return f"{self.get_kind_display()} #{self.pk}"


class Delivery(models.Model):
    """One event owed to one reader; `sent_at` set in the transaction that sends it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user"))
    event = models.ForeignKey(AlertEvent, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("event"))
    follow = models.ForeignKey(Follow, on_delete=models.SET_NULL, null=True, related_name="deliveries",
                               verbose_name=_("follow"))
    due_at = models.DateTimeField(_("due at"))
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    batch = models.UUIDField(_("digest"), null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="delivery_once_per_reader"),
        ]
        indexes = [models.Index(fields=["sent_at", "due_at"], name="delivery_due")]

    def __str__(self):
        return f"{self.user} ← {self.event}"
