from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AlertsConfig(AppConfig):
    name = "alerts"
    verbose_name = _("Alerts")

    def ready(self):
        from alerts import outbox

        outbox.connect_signals()
