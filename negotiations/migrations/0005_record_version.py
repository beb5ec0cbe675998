"""The record version (one row), under which the read pages cache what they render."""

from django.db import migrations, models


def create_row(apps, schema_editor):
    apps.get_model("negotiations", "RecordVersion").objects.using(schema_editor.connection.alias).get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [("negotiations", "0004_shared_cache_table")]

    operations = [
        migrations.CreateModel(
            name="RecordVersion",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("value", models.BigIntegerField(default=0)),
            ],
            options={"verbose_name": "record version"},
        ),
        migrations.AddConstraint(
            model_name="recordversion",
            constraint=models.CheckConstraint(condition=models.Q(id=1), name="record_version_single_row"),
        ),
        migrations.RunPython(create_row, migrations.RunPython.noop),
    ]
