"""The negotiation page: concessions round by round (each term offer by offer, as a step chart and a table),
what each side moved and when, and the gap between the two sides' latest offers. The gap in money is a
``grants`` region the page loads into itself."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from config.numbers import format_date
from negotiations import concessions as rules
from negotiations.cached_pages import render_page
from negotiations.models import Jurisdiction, Negotiation
from negotiations.selectors import verdicts
from negotiations.term_basis import term_label
from negotiations.term_basis import term_value_text as shown
from negotiations.terms import is_share

PARTY_LABELS = {rules.FEDERAL: _("Ottawa"), rules.PROVINCES: _("Provinces and territories")}


def _chart(term: rules.TermRounds) -> dict:
    """A step chart's data: one point per offer, each side's line carried forward between its own offers; its
    values are money, or shares drawn as percentages (the script writes them in the page's language)."""
    return {
        "format": "percent" if is_share(term.term) else "money",
        "labels": [format_date(v.tabled_on) for v in term.rounds],
        "series": [{"key": party, "label": str(PARTY_LABELS[party]), "values": _carried(term, party)}
                   for party in rules.PARTIES],
    }


def _carried(term: rules.TermRounds, party: str) -> list[str | None]:
    """The side's value at each offer: its own latest offer's, carried forward; None before its first offer and
    where its latest offer has none (the line stops: December's offer dropped the employer's minimum share, which
    the line, spanning every gap, drew as kept)."""
    values, current = [], None
    for value in term.rounds:
        if value.party == party:
            current = value.value
        values.append(None if current is None else str(current))
    return values


@require_safe
def negotiation_detail(request, slug):
    def build():
        negotiation = get_object_or_404(Negotiation, slug=slug)
        rounds, _offers = verdicts.negotiation_rounds(negotiation.pk)
        names = dict(Jurisdiction.objects.exclude(kind=Jurisdiction.Kind.FEDERAL).order_by("order", "code")
                     .values_list("code", "name"))
        result = rules.concessions(rounds, list(names))
        changed = [t for t in result.terms if len({repr(v.value) for v in t.rounds}) > 1]
        labels = {path: term_label(path, names) for path in {t.term for t in result.terms}}
        return {
            "negotiation": negotiation,
            "rounds": rounds,
            "party_labels": PARTY_LABELS,
            "rows": [(t.term, labels[t.term], [(v, shown(t.term, v.value)) for v in t.rounds]) for t in changed],
            "charts": [(t.term, labels[t.term], f"steps-{index}", _chart(t))
                       for index, t in enumerate(changed) if t.numeric],
            "moves": {party: [(m, labels.get(m.term) or term_label(m.term, names), shown(m.term, m.before),
                               shown(m.term, m.after)) for m in result.moves_of(party)]
                      for party in rules.PARTIES},
            "gaps": [(g.term, labels.get(g.term) or term_label(g.term, names), shown(g.term, g.federal),
                      shown(g.term, g.provinces)) for g in result.gaps],
            "latest": result.latest,
        }

    return render_page(request, "negotiations/negotiation.html", build)
