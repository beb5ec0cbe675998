"""Why and when an offer was withdrawn (issue 16 point 11)."""

from django.db import migrations, models


class AddField(migrations.AddField):
    """AddField that, on SQLite (which rebuilds the table for a NOT NULL column), leaves out the
    full-text indexes that exist on PostgreSQL only (0003_read_indexes), which SQLite cannot build."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "postgresql":
            from_state = _without_search_indexes(from_state, app_label, self.model_name_lower)
            to_state = _without_search_indexes(to_state, app_label, self.model_name_lower)
        super().database_forwards(app_label, schema_editor, from_state, to_state)


def _without_search_indexes(state, app_label, model_name):
    state = state.clone()
    model = state.models[app_label, model_name]
    model.options["indexes"] = [index for index in model.options.get("indexes", []) if not index.name.endswith("_search")]
    state.reload_model(app_label, model_name, delay=True)
    return state


class Migration(migrations.Migration):

    dependencies = [
        ("negotiations", "0005_record_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicaloffer",
            name="withdrawal_reason",
            field=models.TextField(blank=True, default="", verbose_name="why it was withdrawn"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="historicaloffer",
            name="withdrawn_on",
            field=models.DateField(blank=True, null=True, verbose_name="withdrawn on"),
        ),
        AddField(
            model_name="offer",
            name="withdrawal_reason",
            field=models.TextField(blank=True, default="", verbose_name="why it was withdrawn"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="offer",
            name="withdrawn_on",
            field=models.DateField(blank=True, null=True, verbose_name="withdrawn on"),
        ),
    ]
