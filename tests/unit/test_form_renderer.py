"""config.forms.FormRenderer writes <select> lists as Django's templates do (blank lines aside)."""

import re

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe

from config.forms import FormRenderer


class Sample(forms.Form):
    plain = forms.ChoiceField(choices=[("", "—"), ("x<y", "A & B"), ("2", "two")], required=False)
    grouped = forms.MultipleChoiceField(
        choices=[("Group <1>", [("1", "one"), ("2", "two")]), ("3", "three")],
        widget=forms.SelectMultiple(attrs={"size": 5, "data-x": '"quoted"'}),
    )
    flags = forms.ChoiceField(choices=[(1, "one"), (2, mark_safe("<b>two</b>"))],
                              widget=forms.Select(attrs={"disabled": True, "hidden": False}))


def _lines(html: str) -> str:
    return re.sub(r"\n\s*\n", "\n", html)


@pytest.mark.parametrize("data", [{"plain": "x<y", "grouped": ["1", "3"], "flags": "2"}, {}])
@pytest.mark.parametrize("name", ["plain", "grouped", "flags"])
def test_select_html_is_djangos(data, name):
    django_html = Sample(data, renderer=DjangoTemplates())[name].as_widget()
    ours = Sample(data, renderer=FormRenderer())[name].as_widget()
    assert ours == _lines(django_html)


def test_escapes_values_and_labels_and_marks_the_selected_option():
    html = Sample({"plain": "x<y"}, renderer=FormRenderer())["plain"].as_widget()
    assert '<option value="x&lt;y" selected>A &amp; B</option>' in html
    assert "<option value=\"2\">two</option>" in html


def test_other_widgets_are_left_to_django():
    class Other(forms.Form):
        text = forms.CharField()
        choice = forms.ChoiceField(choices=[("a", "A")], widget=forms.RadioSelect)

    for name in ("text", "choice"):
        assert Other(renderer=FormRenderer())[name].as_widget() == Other(renderer=DjangoTemplates())[name].as_widget()
