"""Guest accounts: someone practises before signing up (issue 14).

Station's pages are a seat holder's, and a seat is held by an account, so a guest who starts a
practice game gets an account of their own: no usable password (`UNUSABLE_HASH` never verifies),
a name no sign-up can take (a dot is not allowed in usernames), `guest` set, and the browser's
session logged in to it. Signing up in that browser turns this very account into an ordinary
one (`accounts.service.do_sign_up`), so the guest's games are kept without moving a row.
Logging in to an existing account instead hands the guest's practice games to it
(`do_adopt_practice`); a game with friends a guest joined stays with the guest account.
"""

from __future__ import annotations

import secrets

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.accounts.models import User
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.tabs.seen_models import StationTabSeen

GUEST_NAME = "Guest"
"""What the pages call a guest (in a game, players see codenames only, S3)."""
UNUSABLE_HASH = "!guest"
"""Not an argon2 hash: no password ever verifies against it."""


async def do_open_guest(db: AsyncSession) -> User:
    """A new guest account (log the browser in to it to play)."""
    guest = User(
        username=f"guest.{secrets.token_hex(8)}",
        display_name=GUEST_NAME,
        password_hash=UNUSABLE_HASH,
        guest=True,
    )
    db.add(guest)
    await db.commit()
    return guest


async def do_adopt_practice(db: AsyncSession, guest: User, user: User) -> None:
    """Hand the practice games of `guest` (their seat, the host's desk, where they last looked)
    to `user`, who logged in from the guest's browser."""
    if not guest.guest or guest.id == user.id:
        return
    practice = select(StationGame.id).where(StationGame.practice.is_(True))
    games = practice.where(StationGame.host_id == guest.id)  # a practice game's one person
    for table, column in (
        (StationSeat, StationSeat.user_id),
        (StationTabSeen, StationTabSeen.user_id),
    ):
        await db.execute(
            update(table)
            .where(column == guest.id, table.game_id.in_(games))
            .values(user_id=user.id)
        )
    await db.execute(update(StationGame).where(StationGame.id.in_(games)).values(host_id=user.id))
    await db.commit()
