"""Who may use the admin: staff, and those who may change the record (the Editor and Admin groups:
they curate there, each within their permissions); the menu shows its link only to them.

Read from the user's permissions, which the auth backend loads once per request (no extra query)."""


def can_use_admin(user) -> bool:
    if not (user.is_active and user.is_authenticated):
        return False
    if user.is_staff:
        return True
    return any(perm.startswith("negotiations.change_") for perm in user.get_all_permissions())


def admin_access(request) -> dict:
    """Context processor: ``can_use_admin``, looked up only when a template reads it."""
    return {"can_use_admin": lambda: can_use_admin(request.user)}
