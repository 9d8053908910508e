"""Guest accounts: someone practises before signing up (issue 14).

Station's pages are a seat holder's, and a seat is held by an account, so a guest who starts a
practice game gets an account of their own: no usable password (`UNUSABLE_HASH` never verifies),
a name no sign-up can take (a dot is not allowed in usernames), `guest` set, and the browser's
session logged in to it. Signing up in that browser turns this very account into an ordinary
one (`accounts.service.do_sign_up`), so the guest's games are kept without moving a row.
"""

from __future__ import annotations

import secrets

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.accounts.models import User

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
