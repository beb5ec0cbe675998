"""Django's ModelBackend, reading a user's permissions in one query instead of two.

Every page that shows or refuses something by permission asks for the user's permissions once per
request; Django's backend reads the user's own permissions and their groups' permissions separately.
"""

from django.contrib.auth import backends
from django.contrib.auth.models import Permission
from django.db.models import Q


def shown_name(user) -> str:
    """Who did something, as every reader sees it: their full name, or nothing. Never their login name, which anyone
    could otherwise collect from the pages (an offer's history, a scenario) to try passwords on."""
    return user.get_full_name().strip() if user is not None else ""


# perf: a logged-in page reads its reader's permissions in 1 query instead of 2 (the query-count tests' limits;
# bench/run's logged-in pages).
class ModelBackend(backends.ModelBackend):
    def get_all_permissions(self, user_obj, obj=None):
        if not user_obj.is_active or user_obj.is_anonymous or obj is not None:
            return set()
        if not hasattr(user_obj, "_perm_cache"):
            if user_obj.is_superuser:
                permissions = Permission.objects.all()
            else:
                permissions = Permission.objects.filter(Q(user=user_obj) | Q(group__user=user_obj))
            rows = permissions.values_list("content_type__app_label", "codename").order_by()
            user_obj._perm_cache = {f"{app_label}.{codename}" for app_label, codename in rows}
        return user_obj._perm_cache
