"""Who is asking: the session's account, as the `viewer` and `me` dependencies."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from litestar import Request
from litestar.di import NamedDependency
from litestar.exceptions import NotAuthorizedException

from deaddrop.server.accounts.models import User
from deaddrop.server.db.dependencies import DB
from deaddrop.server.db.raw_rows import kept
from deaddrop.server.sessions import request_rotation

Viewer = NamedDependency[User | None]
"""Annotation of a handler parameter `viewer`: the logged-in account or None for a guest."""
Me = NamedDependency[User]
"""Annotation of a handler parameter `me`: the logged-in account; guests must log in first."""

USER_ID_KEY = "uid"
"""The session data's key holding the signed-in account's id."""
_USER_ID = USER_ID_KEY
_EPOCH = "epoch"


class LoginRequired(NotAuthorizedException):
    """The page needs an account; HTML requests are sent to the log-in form."""

    def __init__(self, next_path: str) -> None:
        super().__init__(detail="Log in to see this page.")
        self.next_path = next_path

    @property
    def login_url(self) -> str:
        """Where to send the person, coming back here afterwards."""
        return f"/login?next={quote(self.next_path, safe='/')}"


def log_in(request: Request[Any, Any, Any], user: User) -> None:
    """Bind the session to `user`, under a fresh session ID."""
    request.set_session({_USER_ID: user.id, _EPOCH: user.auth_epoch})
    request_rotation(request.session)


def log_out(request: Request[Any, Any, Any]) -> None:
    """Forget the account; the session continues empty under a fresh ID (for a flash)."""
    request.set_session({})
    request_rotation(request.session)


async def provide_viewer(request: Request[Any, Any, Any], db: DB) -> User | None:
    """The logged-in account, or None for a guest or a session ended by a password change."""
    user_id = request.session.get(_USER_ID)
    if not isinstance(user_id, int):
        return None
    # Read with the session's own row (sessions.py `NamedRow`): usually already in `db`.
    user = kept(db, User, user_id) or await db.get(User, user_id)
    if user is None or not holds_for(request.session, user.auth_epoch):
        request.set_session({})
        return None
    return user


def holds_for(session: dict[str, Any], auth_epoch: int) -> bool:
    """Whether a session signed in to an account still holds: it was opened at the account's
    `auth_epoch` (a password change moves the epoch on and so ends every older session)."""
    return bool(session.get(_EPOCH) == auth_epoch)


async def provide_me(request: Request[Any, Any, Any], viewer: Viewer) -> User:
    """The logged-in account; guests are sent to log in first."""
    if viewer is None:
        raise LoginRequired(next_path=request.url.path)
    return viewer


def safe_next(raw: str | None) -> str:
    """A path on this site to return to after log-in or sign-up; anything else becomes `/`."""
    if not raw or not raw.startswith("/") or raw.startswith("//"):
        return "/"  # another site (`//host`), a scheme, or no path at all
    # Browsers read `\` as `/` and drop tabs and newlines, so `/\host` and `/<tab>/host`
    # lead elsewhere too; and a control character has no place in a Location header.
    if "\\" in raw or any(ord(char) <= 0x20 or ord(char) == 0x7F for char in raw):
        return "/"
    return raw
