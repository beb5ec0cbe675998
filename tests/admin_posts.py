"""What an admin change form posts for its inlines when no row is added: each inline's management form; and
what the position change form posts (position_change).

Built from the registered ModelAdmin, so a test that posts to the admin keeps working when a model gains an
inline (as positions gained their conditions and passages, and offers their terms' basis).
"""

from django.contrib import admin
from django.test import RequestFactory

from negotiations.models import Position


def empty_inlines(model, **rows: int) -> dict[str, str]:
    """The management form of every inline of ``model``'s admin, with no rows (or ``rows[prefix]`` existing rows)."""
    model_admin = admin.site._registry[model]
    request = RequestFactory().get("/")
    request.user = _Superuser()
    data = {}
    for inline in model_admin.get_inline_instances(request):
        prefix = inline.get_formset(request).get_default_prefix()
        count = str(rows.get(prefix, 0))
        data.update({f"{prefix}-TOTAL_FORMS": count, f"{prefix}-INITIAL_FORMS": count,
                     f"{prefix}-MIN_NUM_FORMS": "0", f"{prefix}-MAX_NUM_FORMS": "1000"})
    return data


def change_form_data(client, url: str) -> dict:
    """What the admin's change form at ``url`` posts when saved as it is shown (its main form; inlines unchanged)."""
    page = client.get(url)
    form = page.context["adminform"].form
    data = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, (list, tuple)):
            data[name] = [str(item) for item in value]
        elif value is None or value is False:
            continue
        else:
            data[name] = value.isoformat() if hasattr(value, "isoformat") else str(value)
    for formset in page.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        data.update({management.add_prefix(name): management[name].value() for name in management.fields})
        for inline_form in formset.formset.forms:
            for name in inline_form.fields:
                value = inline_form[name].value()
                if value not in (None, False):
                    data[inline_form.add_prefix(name)] = value.isoformat() if hasattr(value, "isoformat") else str(value)
    return data


def position_change(position, **changes) -> dict:
    """What the admin's change form posts for `position` as it stands (with its version, and no inline rows), with
    `changes`."""
    data = {
        "negotiation": position.negotiation_id,
        "jurisdiction": position.jurisdiction_id,
        "as_of": position.as_of.isoformat(),
        "date_precision": position.date_precision,
        "stance": position.stance,
        "summary_en": position.summary,  # the admin edits both languages (modeltranslation)
        "conditions_en": position.conditions,
        "seen_version": position.version,
        **empty_inlines(Position),
    }
    data.update(changes)
    return data


class _Superuser:
    """Enough of a user for the admin to list its inlines: it may do everything."""

    is_active = is_staff = is_superuser = True

    def has_perm(self, perm, obj=None):
        return True
