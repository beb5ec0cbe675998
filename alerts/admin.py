from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from alerts.models import AlertEvent, Delivery, Follow


@admin.register(Follow)
class FollowAdmin(SimpleHistoryAdmin):
    list_display = ("user", "target_label", "frequency", "language", "created_at")
    list_select_related = ("user", "negotiation", "jurisdiction", "person")
    list_filter = ("frequency", "language")
    search_fields = ("user__username", "user__email", "query")
    raw_id_fields = ("user", "person")


@admin.register(AlertEvent)
class AlertEventAdmin(admin.ModelAdmin):
    list_display = ("pk", "kind", "negotiation", "jurisdiction", "created_at", "fanned_out")
    list_select_related = ("negotiation", "jurisdiction")
    list_filter = ("kind", "fanned_out")
    raw_id_fields = ("statement", "position", "offer", "person")


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ("pk", "user", "event", "due_at", "sent_at", "batch")
    list_select_related = ("user", "event")
    list_filter = ("sent_at",)
    raw_id_fields = ("user", "event", "follow")
