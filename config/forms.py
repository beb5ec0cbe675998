"""Django's form renderer, with <select> elements written in Python.

Django renders every <option> through two templates; on a list of hundreds (the negotiations, the
people, the sources) that is most of a page's time. This renderer writes the same HTML as Django's
select.html, select_option.html and attrs.html templates, and leaves every other widget to them.
"""

from html import escape

from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe

SELECT = "django/forms/widgets/select.html"
OPTION = "django/forms/widgets/select_option.html"


def _text(value) -> str:
    """As the template's autoescape: escaped unless already safe HTML."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape(str(value))


def _attrs(attrs: dict) -> str:
    """As django/forms/widgets/attrs.html: False leaves the attribute out, True writes its name alone."""
    return "".join(
        f" {_text(name)}" if value is True else f' {_text(name)}="{_text(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


def _select(widget: dict) -> str:
    parts = [f'<select name="{_text(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, options, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{_text(group_name)}">')
        for option in options:
            parts.append(
                f'\n  <option value="{_text(option["value"])}"{_attrs(option["attrs"])}>'
                f'{_text(option["label"])}</option>'
            )
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


class FormRenderer(DjangoTemplates):
    def render(self, template_name, context, request=None):
        widget = context.get("widget") if template_name == SELECT else None
        if widget is not None and all(
            option["template_name"] == OPTION for _name, options, _index in widget["optgroups"] for option in options
        ):
            return mark_safe(_select(widget))
        return super().render(template_name, context, request)
