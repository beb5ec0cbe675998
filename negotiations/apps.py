from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.db.models.signals import pre_save
from django.utils.translation import gettext_lazy as _


def skip_history_for_fixture_loads(sender, instance, raw=False, **kwargs):
    """A restore (loaddata) brings its own history rows: don't add new ones for its many-to-many sets."""
    if raw:
        instance.skip_history_when_saving = True


def register_unaccent(sender, connection, **kwargs):
    """SQLite has no unaccent(): give each connection one, so search ignores accents there too."""
    if connection.vendor == "sqlite":
        from negotiations.search import fold

        connection.connection.create_function("unaccent", 1, fold, deterministic=True)


class NegotiationsConfig(AppConfig):
    name = "negotiations"
    verbose_name = _("Negotiation record")

    def ready(self):
        pre_save.connect(skip_history_for_fixture_loads, dispatch_uid="skip-history-for-fixture-loads")
        connection_created.connect(register_unaccent, dispatch_uid="register-unaccent")

        from negotiations import record_cache

        record_cache.connect_signals()
