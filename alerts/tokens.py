"""Unsubscribe tokens: signed, so a link from a digest works without signing in, and only for its follow."""

from django.core import signing

SALT = "alerts.unsubscribe"


def unsubscribe_token(*, user_id: int, follow_id: int | None = None) -> str:
    """A token for one follow, or (follow_id None) for every follow of the reader."""
    return signing.dumps({"u": user_id, "f": follow_id}, salt=SALT, compress=True)


def read_token(token: str) -> tuple[int, int | None]:
    """(user id, follow id or None); raises signing.BadSignature for a token we did not sign."""
    data = signing.loads(token, salt=SALT)
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        raise signing.BadSignature("malformed token")
    follow_id = data.get("f")
    if follow_id is not None and not isinstance(follow_id, int):
        raise signing.BadSignature("malformed token")
    return data["u"], follow_id
