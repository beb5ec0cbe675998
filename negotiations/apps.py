from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NegotiationsConfig(AppConfig):
    name = "negotiations"
    verbose_name = _("Negotiation record")
