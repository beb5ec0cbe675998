"""Search in both of the record's languages: the full-text indexes rebuilt over each translated field's
English column (English stemming) and French column (French stemming); a quote once, stemmed in the
language it was spoken in. The configurations are 0007_i16_search's. PostgreSQL only, as the indexes they replace."""

import operator
from functools import reduce

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchConfig, SearchVector
from django.db import migrations
from django.db.models import Case, When

CONFIGURATIONS = {"en": "fpt_english", "fr": "fpt_french"}


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


def index(name, fields, translated, spoken_in=None):
    vectors = []
    for language, config in CONFIGURATIONS.items():
        for field, weight in zip(fields, "ABC"):
            if field in translated:
                vectors.append(SearchVector(f"{field}_{language}", weight=weight, config=config))
            elif language == "en":  # a quote: once, stemmed in the language it was spoken in
                stemming = Case(When(**{spoken_in: "fr"}, then=SearchConfig("fpt_french")),
                                default=SearchConfig("fpt_english"))
                vectors.append(SearchVector(field, weight=weight, config=stemming))
    return GinIndex(reduce(operator.add, vectors), name=name)


SEARCHED = (("meeting", "meeting_search", ("title", "outcome", "location"), ("title", "outcome", "location")),
            ("offer", "offer_search", ("title", "summary", "assumptions"), ("title", "summary", "assumptions")),
            ("statement", "statement_search", ("quote", "context"), ("context",), "language"))


class Migration(migrations.Migration):
    dependencies = [("negotiations", "0022_language_spoken_blank_choice")]

    operations = [
        operation
        for model, name, fields, *spoken in SEARCHED
        for operation in (
            RemoveIndexOnPostgreSQL(model_name=model, name=name),
            AddIndexOnPostgreSQL(model_name=model, index=index(name, fields, *spoken)),
        )
    ]
