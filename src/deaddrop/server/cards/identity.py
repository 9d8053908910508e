"""Who sits at a Cards table: an account, or a guest known by a key in their own cookie.

Solo play starts before signing up: the guest gets a random key in a cookie of its own (not the
session, which log-in replaces). Once that browser is logged in, the guest's seats move to the
account the next time a Cards page is opened, so signing up keeps the guest's tables.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from litestar import Request
from litestar.datastructures import Cookie
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.accounts.auth import Viewer
from deaddrop.server.accounts.models import User
from deaddrop.server.cards.models import CardsSeat
from deaddrop.server.db.dependencies import DB

GUEST_COOKIE = "deaddrop_cards_guest"
GUEST_MAX_AGE = 90 * 24 * 3600
GUEST_NAME = "Guest"
_KEY = re.compile(r"^[A-Za-z0-9_-]{32,64}$")


@dataclass(frozen=True)
class Who:
    """The person asking: an account, a guest with a key, or nobody yet (a new guest)."""

    user: User | None
    """The logged-in account, if any."""
    guest_key: str | None
    """The guest key of this browser, when not logged in."""

    @property
    def known(self) -> bool:
        """Whether this person can hold a seat (an account or a guest key)."""
        return self.user is not None or self.guest_key is not None

    @property
    def name(self) -> str:
        """What a table calls this person."""
        return self.user.display_name if self.user is not None else GUEST_NAME

    def holds(self, seat: CardsSeat) -> bool:
        """Whether this person holds the seat."""
        if self.user is not None:
            return seat.user_id == self.user.id
        return self.guest_key is not None and seat.guest_key == self.guest_key

    def claim(self, seat: CardsSeat) -> None:
        """Put this person in a free seat."""
        seat.user_id = self.user.id if self.user is not None else None
        seat.guest_key = None if self.user is not None else self.guest_key
        seat.name = self.name


def guest_key_of(request: Request[Any, Any, Any]) -> str | None:
    """The guest key in this browser's cookie, if it is well formed."""
    raw = request.cookies.get(GUEST_COOKIE)
    return raw if raw and _KEY.match(raw) else None


def new_guest_key() -> str:
    """A fresh unguessable guest key."""
    return secrets.token_urlsafe(32)


def guest_cookie(key: str, secure: bool) -> Cookie:
    """The cookie that keeps a guest's seats in this browser."""
    return Cookie(
        key=GUEST_COOKIE,
        value=key,
        max_age=GUEST_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )


async def attach_guest_seats(db: AsyncSession, key: str, user: User) -> int:
    """Move every seat the guest key holds to the account (after sign-up or log-in)."""
    result = await db.execute(
        update(CardsSeat)
        .where(CardsSeat.guest_key == key)
        .values(user_id=user.id, guest_key=None, name=user.display_name)
    )
    await db.commit()
    return int(getattr(result, "rowcount", 0) or 0)


async def provide_who(request: Request[Any, Any, Any], db: DB, viewer: Viewer) -> Who:
    """The `who` dependency: the account (after taking over its guest seats) or the guest."""
    key = guest_key_of(request)
    if viewer is not None:
        if key is not None:
            await attach_guest_seats(db, key, viewer)
        return Who(viewer, None)
    return Who(None, key)
