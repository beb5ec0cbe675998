"""The admin site: who may use it, its titles, and what every model admin shares (Django's documented way to
replace the default site: ``config.apps.AdminConfig``)."""

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import AutocompleteSelect, AutocompleteSelectMultiple
from django.db import DataError
from django.http import Http404
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from config import admin_access
from config.keys import is_stored_key
from config.login import AdminLoginForm

# Words of the installed apps' admin pages that their own French catalogues lack (this project's catalogue holds them):
# django-simple-history's history table heads a column "Changes".
gettext_noop("Changes")


class _KeysCheckedAutocomplete:
    """Django's autocomplete widget, redrawn after a refused save, looks the posted keys up as they came;
    a key that is not one ("abc" for a number, from a tampered or scripted post) raised a 500 there
    instead of the form's "Select a valid choice". Keys that are not keys of the related model are left
    out of that lookup; the field's own error still says what was wrong."""

    def optgroups(self, name, value, attr=None):
        related = self.field.remote_field
        to_field = related.model._meta.get_field(getattr(related, "field_name", None) or related.model._meta.pk.name)
        return super().optgroups(name, [key for key in value if is_stored_key(to_field, key)], attr)


class KeysCheckedAutocompleteSelect(_KeysCheckedAutocomplete, AutocompleteSelect):
    pass


class KeysCheckedAutocompleteSelectMultiple(_KeysCheckedAutocomplete, AutocompleteSelectMultiple):
    pass


class AutocompleteFieldsMixin:
    """``autocomplete_fields`` drawn by the widgets above: every model admin has it (``TrackerAdminSite.register``);
    an inline lists it among its bases."""

    foreign_key_widget = KeysCheckedAutocompleteSelect

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name in self.get_autocomplete_fields(request) and "widget" not in kwargs:
            kwargs["widget"] = self.foreign_key_widget(db_field, self.admin_site, using=kwargs.get("using"))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name in self.get_autocomplete_fields(request) and "widget" not in kwargs:
            kwargs["widget"] = KeysCheckedAutocompleteSelectMultiple(db_field, self.admin_site, using=kwargs.get("using"))
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class SiteFormRules:
    """The admin's forms take what is typed as the site's forms do (``negotiations.forms.RefuseControlCharacters``):
    a control character is taken out and said next to its field (one saved in a quote made every Atom feed and
    Word brief fail), and no field carries the browser's ``maxlength``, which cuts a longer text pasted in
    without a word. Every model admin has it (``TrackerAdminSite.register``); an inline lists it among its bases."""

    def get_form(self, request, obj=None, **kwargs):
        return _with_site_rules(super().get_form(request, obj, **kwargs))

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        formset.form = _with_site_rules(formset.form)
        return formset


def _with_site_rules(form_class):
    from negotiations.forms import RefuseControlCharacters  # (the record's models: loaded once apps are)

    if issubclass(form_class, RefuseControlCharacters):
        return form_class
    return type(form_class.__name__, (RefuseControlCharacters, form_class), {"__module__": form_class.__module__})


class SelectedRowsChecked:
    """An action posted with a selected row that is no key ("abc" for a number, from a tampered or scripted post)
    is refused with a message on the list, and nothing is changed; Django's admin filtered the rows by it and
    failed with a 500."""

    def response_action(self, request, queryset):
        key = queryset.model._meta.pk
        if not all(is_stored_key(key, value) for value in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)):
            self.message_user(request, gettext("Some selected rows do not exist. No rows have been changed."),
                              messages.WARNING)
            return None  # the list again, with the message
        return super().response_action(request, queryset)


class AddressesChecked:
    """A list's filter or a history version's address that no row can match is refused as Django refuses a bad
    filter, not with a 500: ``?pk__in=99999999999999999999`` or ``?date__year=`` as large overflowed SQLite's
    integers when the list was read, and ``…/history/zz/`` and ``…/zz/history/`` (simple_history) were looked up as
    numbers."""

    def get_changelist_instance(self, request):
        try:
            return super().get_changelist_instance(request)
        except (OverflowError, DataError) as error:  # read when the list is counted, after Django's own checks
            raise IncorrectLookupParameters(error) from error

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        history = getattr(self.model, self.model._meta.simple_history_manager_attribute).model
        if not (is_stored_key(self.model._meta.pk, unquote(object_id)) and is_stored_key(history._meta.pk, version_id)):
            raise Http404
        return super().history_form_view(request, object_id, version_id, extra_context=extra_context)

    def history_view(self, request, object_id, extra_context=None):
        # (simple_history's list of versions looked ``…/abc/history/`` up as a number: a 500.)
        if not is_stored_key(self.model._meta.pk, unquote(object_id)):
            raise Http404
        return super().history_view(request, object_id, extra_context=extra_context)


def titled_filter(field_path: str, title):
    """A ``list_filter`` entry for ``field_path`` whose heading is ``title`` instead of the field's name: Django heads a
    filter "By <field's name>", which for some fields reads badly ("By on behalf of", "By tabled by"). The filter
    itself is the one Django picks for the field."""

    class Titled(admin.FieldListFilter):
        def __new__(cls, field, request, params, model, model_admin, field_path):
            chosen = admin.FieldListFilter.create(field, request, params, model, model_admin, field_path)
            chosen.title = title
            return chosen

    return field_path, Titled


class TrackerAdminSite(admin.AdminSite):
    site_header = _("FPT Negotiations Tracker")
    site_title = _("FPT Tracker admin")
    login_form = AdminLoginForm

    def has_permission(self, request):
        return admin_access.can_use_admin(request.user)

    def register(self, model_or_iterable, admin_class=None, **options):
        """Every model admin, this project's and the installed apps' (auth, axes), with what they all share."""
        admin_class = admin_class or admin.ModelAdmin
        shared = type(admin_class.__name__, (SelectedRowsChecked, AddressesChecked, AutocompleteFieldsMixin, SiteFormRules, admin_class), {"__module__": admin_class.__module__})
        super().register(model_or_iterable, shared, **options)
