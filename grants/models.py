"""Reference fiscal data the engine reads: national envelopes of the transfer programs.

Populations live on negotiations.Jurisdiction (with their date, source and confidence).
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from negotiations.models import Confidence, Program


class ProgramEnvelope(models.Model):
    program = models.CharField(_("program"), max_length=12, choices=Program.choices, unique=True)
    name_en = models.CharField(_("name (English)"), max_length=150)
    name_fr = models.CharField(_("name (French)"), max_length=150)
    annual_amount = models.DecimalField(_("national amount a year"), max_digits=14, decimal_places=2)
    allocation = models.CharField(_("how it is allocated"), max_length=150, blank=True)
    source = models.CharField(_("source"), max_length=300)
    confidence = models.CharField(_("confidence"), max_length=6, choices=Confidence.choices, default=Confidence.HIGH)
    notes = models.TextField(_("notes"), blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["program"]
        constraints = [
            models.CheckConstraint(condition=Q(annual_amount__gte=0), name="envelope_not_negative",
                                   violation_error_message=_("An envelope cannot be negative.")),
        ]

    def __str__(self):
        return f"{self.program}: {self.annual_amount:,.0f} a year"
