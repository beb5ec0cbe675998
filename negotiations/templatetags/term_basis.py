"""Show the basis of one term next to its value: ``{% basis_mark basis "sources" row.payer row.program %}``.

The parts are joined with dots into a term path; the tag only looks the line up in an ``OfferBasis``
that a selector read (no query here).
"""

from django import template

register = template.Library()


@register.inclusion_tag("negotiations/_basis_mark.html")
def basis_mark(basis, *parts):
    """The mark of the term whose path is ``parts`` joined by dots; nothing when ``basis`` is None."""
    line = basis.by_term.get(".".join(str(part) for part in parts)) if basis is not None else None
    return {"line": line}
