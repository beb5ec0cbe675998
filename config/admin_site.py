"""The admin site: who may use it, its titles, and what every model admin shares (Django's documented way to
replace the default site: ``config.apps.AdminConfig``)."""

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config import admin_access
from config.login import AdminLoginForm


class SelectedRowsChecked:
    """An action posted with a selected row that is no key ("abc" for a number, from a tampered or scripted post)
    is refused with a message on the list, and nothing is changed; Django's admin filtered the rows by it and
    failed with a 500."""

    def response_action(self, request, queryset):
        key = queryset.model._meta.pk
        try:
            for value in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME):
                key.to_python(value)
        except ValidationError:
            self.message_user(request, gettext("Some selected rows do not exist. No rows have been changed."),
                              messages.WARNING)
            return None  # the list again, with the message
        return super().response_action(request, queryset)


class TrackerAdminSite(admin.AdminSite):
    site_header = _("FPT Negotiations Tracker")
    site_title = _("FPT Tracker admin")
    login_form = AdminLoginForm

    def has_permission(self, request):
        return admin_access.can_use_admin(request.user)

    def register(self, model_or_iterable, admin_class=None, **options):
        """Every model admin, this project's and the installed apps' (auth, axes), with what they all share."""
        admin_class = admin_class or admin.ModelAdmin
        shared = type(admin_class.__name__, (SelectedRowsChecked, admin_class), {"__module__": admin_class.__module__})
        super().register(model_or_iterable, shared, **options)
