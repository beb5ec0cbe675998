"""The table of the "shared" cache (settings.CACHES), which counts failed logins across workers."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", "shared_cache", database=schema_editor.connection.alias, verbosity=0)


def drop_cache_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name('shared_cache')}")


class Migration(migrations.Migration):
    dependencies = [("negotiations", "0003_read_indexes")]

    operations = [migrations.RunPython(create_cache_table, drop_cache_table)]
