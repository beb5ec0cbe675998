"""The negotiation page: concessions round by round (each term offer by offer, as a step chart and a table),
what each side moved and when, and the gap between the two sides' latest offers. The gap in money is a
``grants`` region the page loads into itself."""

from decimal import Decimal

from django.shortcuts import get_object_or_404
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from negotiations import concessions as rules
from negotiations import verdicts
from negotiations.cached_pages import render_page
from negotiations.models import Jurisdiction, Negotiation

PARTY_LABELS = {rules.FEDERAL: _("Ottawa"), rules.PROVINCES: _("Provinces and territories")}


def shown(term: str, value) -> str:
    """A term's value as the page writes it."""
    if term == "phase_in":
        if not value:
            return "—"
        (first, start), (last, end) = value[0], value[-1]
        return f"{first} → {last}: {number_format(start.normalize())} → {number_format(end.normalize())}"
    if value is None or value == "":
        return "—"
    if isinstance(value, Decimal):
        if term == "employer_min_share":
            return number_format(value.normalize())
        return "$" + number_format(value, decimal_pos=0 if value == value.to_integral_value() else 2, force_grouping=True)
    return str(value)


def _chart(term: rules.TermRounds) -> dict:
    """A step chart's data: one point per offer, each side's line carried forward between its own offers."""
    return {
        "labels": [f"{v.tabled_on:%Y-%m-%d}" for v in term.rounds],
        "series": [
            {"key": party, "label": str(PARTY_LABELS[party]),
             "values": [None if v.value is None or v.party != party else str(v.value) for v in term.rounds]}
            for party in rules.PARTIES
        ],
    }


@require_safe
def negotiation_detail(request, slug):
    def build():
        negotiation = get_object_or_404(Negotiation, slug=slug)
        rounds, _offers = verdicts.negotiation_rounds(negotiation.pk)
        codes = list(Jurisdiction.objects.exclude(kind=Jurisdiction.Kind.FEDERAL).order_by("order", "code")
                     .values_list("code", flat=True))
        result = rules.concessions(rounds, codes)
        changed = [t for t in result.terms if len({repr(v.value) for v in t.rounds}) > 1]
        return {
            "negotiation": negotiation,
            "rounds": rounds,
            "party_labels": PARTY_LABELS,
            "rows": [(t.term, [(v, shown(t.term, v.value)) for v in t.rounds]) for t in changed],
            "charts": [(t.term, f"steps-{index}", _chart(t)) for index, t in enumerate(changed) if t.numeric],
            "moves": {party: [(m, shown(m.term, m.before), shown(m.term, m.after)) for m in result.moves_of(party)]
                      for party in rules.PARTIES},
            "gaps": [(g.term, shown(g.term, g.federal), shown(g.term, g.provinces)) for g in result.gaps],
            "latest": result.latest,
        }

    return render_page(request, "negotiations/negotiation.html", build)
