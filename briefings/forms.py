from django import forms
from django.utils.translation import gettext_lazy as _

from negotiations.validators import validate_record_date


class BriefingForm(forms.Form):
    since = forms.DateField(
        label=_("What changed since"), required=False, input_formats=["%Y-%m-%d"], validators=[validate_record_date],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"invalid": _("Write the date as YYYY-MM-DD, such as 2014-01-15.")},
    )
    negotiation = forms.SlugField(required=False, max_length=100)
