"""Who may use the admin: staff, and the members of the Editor and Admin groups (they curate the
record there, each within their group's permissions); the menu shows its link only to them."""

CURATOR_GROUPS = ("Editor", "Admin")


def can_use_admin(user) -> bool:
    if not (user.is_active and user.is_authenticated):
        return False
    if user.is_staff:
        return True
    cached = getattr(user, "_can_use_admin", None)
    if cached is None:
        cached = user._can_use_admin = user.groups.filter(name__in=CURATOR_GROUPS).exists()
    return cached


def has_permission(request) -> bool:
    return can_use_admin(request.user)


def admin_access(request) -> dict:
    """Context processor: ``can_use_admin``, looked up only when a template reads it."""
    return {"can_use_admin": lambda: can_use_admin(request.user)}
