"""The admin for the reference fiscal data, with the history of every change."""

from django.contrib import admin
from modeltranslation.admin import TranslationAdmin
from simple_history.admin import SimpleHistoryAdmin

from grants.models import ProgramEnvelope, Scenario


@admin.register(ProgramEnvelope)
class ProgramEnvelopeAdmin(TranslationAdmin, SimpleHistoryAdmin):
    list_display = ("program", "name_en", "annual_amount", "allocation", "confidence")
    list_display_links = ("program", "name_en")
    list_filter = ("confidence",)
    search_fields = ("program", "name_en", "name_fr", "source", "notes")


@admin.register(Scenario)
class ScenarioAdmin(SimpleHistoryAdmin):
    list_display = ("title", "negotiation", "as_of", "author", "created")
    list_select_related = ("negotiation", "author")
    list_filter = ("negotiation",)
    search_fields = ("title", "notes", "assumptions")
    readonly_fields = ("created",)
    raw_id_fields = ("author",)
