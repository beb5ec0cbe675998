from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BriefingsConfig(AppConfig):
    name = "briefings"
    verbose_name = _("Briefings")
