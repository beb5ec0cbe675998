from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GrantsConfig(AppConfig):
    name = "grants"
    verbose_name = _("Fiscal effect")

    def ready(self) -> None:
        from grants.loading import PROGRAMS
        from negotiations.loading import register_section

        register_section(PROGRAMS)
