"""The record version starts at a random value (negotiations.record_cache.random_start), so that
databases sharing one Redis never share cache keys."""

from django.db import migrations


def restart(apps, schema_editor):
    from negotiations.record_cache import random_start

    RecordVersion = apps.get_model("negotiations", "RecordVersion")
    RecordVersion.objects.using(schema_editor.connection.alias).filter(pk=1).update(value=random_start())


class Migration(migrations.Migration):
    dependencies = [("negotiations", "0005_record_version")]

    operations = [migrations.RunPython(restart, migrations.RunPython.noop)]
