"""The admin for the reference fiscal data, with the history of every change."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from grants.models import ProgramEnvelope


@admin.register(ProgramEnvelope)
class ProgramEnvelopeAdmin(SimpleHistoryAdmin):
    list_display = ("program", "name_en", "annual_amount", "allocation", "confidence")
    list_display_links = ("program", "name_en")
    list_filter = ("confidence",)
    search_fields = ("program", "name_en", "name_fr", "source", "notes")
