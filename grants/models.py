"""Reference fiscal data the engine reads: national envelopes of the transfer programs.

Populations live on negotiations.Jurisdiction (with their date, source and confidence).
"""

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from config.auth import shown_name
from negotiations import bounds
from negotiations.models import (
    Confidence,
    Program,
    TermFields,
    bounded_text,
    date_range_constraint,
    length_constraint,
    translated_length_constraints,
)
from negotiations.validators import validate_record_date


class ProgramEnvelope(models.Model):
    program = models.CharField(_("program"), max_length=12, choices=Program.choices, unique=True)
    # Stored as name_en and name_fr (grants/translation.py); ``name`` is the reader's language's.
    name = models.CharField(_("name"), max_length=150)
    annual_amount = models.DecimalField(_("national amount a year"), max_digits=14, decimal_places=2)
    allocation = models.CharField(_("how it is allocated"), max_length=150, blank=True)
    source = models.CharField(_("source"), max_length=300)
    confidence = models.CharField(_("confidence"), max_length=6, choices=Confidence.choices, default=Confidence.HIGH)
    notes = bounded_text(_("notes"), bounds.NOTES_LENGTH, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("program envelope")
        verbose_name_plural = _("program envelopes")
        ordering = ["program"]
        constraints = [
            models.CheckConstraint(condition=Q(annual_amount__gte=0), name="envelope_not_negative",
                                   violation_error_message=_("An envelope cannot be negative.")),
            *translated_length_constraints("programenvelope", "notes", bounds.NOTES_LENGTH),
        ]

    def __str__(self):
        from config.numbers import format_money

        return _("%(program)s: %(amount)s a year") % {"program": self.program, "amount": format_money(self.annual_amount)}


class Scenario(TermFields):
    """A what-if an analyst saves to share and compare: terms, participation and fiscal year, never part
    of the record (no timeline, matrix, overview, offer list or /api/offers shows it) until an editor
    records it as an offer.

    It lives in ``grants``, beside the engine it feeds, rather than in ``negotiations``: the record's
    selectors cannot see it by construction. Its scalar terms are stored as an offer's are; the rows an
    offer keeps in tables of their own (funding sources, treatments, phase-in) are kept here as JSON,
    amounts as strings (``negotiations.terms.OfferTerms`` is what both read as).
    """

    title = models.CharField(_("title"), max_length=250)
    negotiation = models.ForeignKey(
        "negotiations.Negotiation", on_delete=models.PROTECT, related_name="scenarios", verbose_name=_("negotiation"),
    )
    as_of = models.DateField(_("as of"), validators=[validate_record_date],
                             help_text=_("Who would sign is judged against the positions in force on this date."))
    participation = models.DecimalField(_("employer participation"), max_digits=12, decimal_places=10, default=Decimal(1),
                                        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(1))])
    fiscal_year = models.CharField(_("fiscal year"), max_length=7, blank=True, help_text=_("Such as 2015-16; empty: full scale."))
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="scenarios", verbose_name=_("author"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    notes = bounded_text(_("notes"), bounds.NOTES_LENGTH, blank=True)

    # The one-value terms are TermFields' fields (as an offer's).
    assumptions = bounded_text(_("assumptions"), bounds.ASSUMPTIONS_LENGTH, blank=True)
    sources = models.JSONField(_("funding sources"), default=list, blank=True,
                               help_text=_('Rows of [payer, program, amount per trainee], e.g. ["federal", "LMA", "5000.00"].'))
    treatments = models.JSONField(_("treatments"), default=dict, blank=True,
                                  help_text=_('P/T code to treatment, e.g. {"QC": "opts_out_compensated"}; others participate.'))
    phase_in = models.JSONField(_("phase-in"), default=list, blank=True,
                                help_text=_('Rows of [fiscal year, fraction], e.g. ["2014-15", "0.25"].'))
    history = HistoricalRecords()

    @property
    def author_name(self) -> str:
        """Who saved it, as every reader sees it (``config.auth.shown_name``)."""
        return shown_name(self.author)

    class Meta:
        verbose_name = _("scenario")
        verbose_name_plural = _("scenarios")
        ordering = ["-created", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(participation__gte=0) & Q(participation__lte=1),
                                   name="scenario_participation_fraction",
                                   violation_error_message=_("Participation is between 0 and 1.")),
            length_constraint("scenario", "notes", bounds.NOTES_LENGTH),
            length_constraint("scenario", "assumptions", bounds.ASSUMPTIONS_LENGTH),
            date_range_constraint("scenario", "as_of"),
        ]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("grants:scenario", args=[self.pk])
