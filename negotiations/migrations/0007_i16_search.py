"""Search that ignores accents (issue 16.6, 15.4): on PostgreSQL, the unaccent extension and the
text search configuration "fpt_english" (English stemming after unaccent), and the full-text indexes
rebuilt with it. Nothing on other databases (SQLite gets an unaccent() function per connection)."""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector
from django.db import migrations

CONFIGURATION = """
CREATE EXTENSION IF NOT EXISTS unaccent;
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'fpt_english') THEN
    CREATE TEXT SEARCH CONFIGURATION fpt_english (COPY = english);
    ALTER TEXT SEARCH CONFIGURATION fpt_english
      ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'fpt_french') THEN
    CREATE TEXT SEARCH CONFIGURATION fpt_french (COPY = french);
    ALTER TEXT SEARCH CONFIGURATION fpt_french
      ALTER MAPPING FOR hword, hword_part, word WITH unaccent, french_stem;
  END IF;
END $$;
"""


def configure(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CONFIGURATION)


class OnPostgreSQL:
    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class AddIndexOnPostgreSQL(OnPostgreSQL, migrations.AddIndex):
    pass


class RemoveIndexOnPostgreSQL(OnPostgreSQL, migrations.RemoveIndex):
    pass


def index(name, fields):
    vectors = [SearchVector(field, weight=weight, config="fpt_english") for field, weight in zip(fields, "ABC")]
    expression = vectors[0]
    for vector in vectors[1:]:
        expression = expression + vector
    return GinIndex(expression, name=name)


SEARCHED = (("meeting", "meeting_search", ("title", "outcome", "location")),
            ("offer", "offer_search", ("title", "summary", "assumptions")),
            ("statement", "statement_search", ("quote", "context")))


class Migration(migrations.Migration):
    dependencies = [("negotiations", "0006_i16_offer_withdrawal")]

    operations = [
        migrations.RunPython(configure, migrations.RunPython.noop),
        *[operation for model, name, fields in SEARCHED for operation in (
            RemoveIndexOnPostgreSQL(model_name=model, name=name),
            AddIndexOnPostgreSQL(model_name=model, index=index(name, fields)),
        )],
    ]
