"""``{% figure_basis notes card.line %}``: the mark saying what a figure rests on (no query here)."""

from django import template

register = template.Library()


@register.inclusion_tag("grants/_figure_basis.html")
def figure_basis(notes, line, side=""):
    """The mark for the figure ``line``, from ``grants.term_basis.figure_notes``; nothing without notes.

    ``side`` (such as "A") names which offer the mark is about, where two are compared.
    """
    return {"note": notes.get(line) if notes else None, "side": side}
