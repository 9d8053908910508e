"""Account reads and writes: `do_*` functions commit their own transaction."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.accounts.forms import Profile
from deaddrop.server.accounts.models import User
from deaddrop.server.accounts.passwords import hash_password, needs_rehash, verify_password


class UsernameTaken(Exception):
    """Someone already has this username."""


class WrongPassword(Exception):
    """The current password given to confirm a change was wrong."""


async def find_user(db: AsyncSession, username: str) -> User | None:
    """The account with this (normalised) username, if any."""
    return await db.scalar(select(User).where(User.username == username))


async def count_users(db: AsyncSession) -> int:
    """How many accounts exist."""
    return int(await db.scalar(select(func.count()).select_from(User)) or 0)


async def do_sign_up(
    db: AsyncSession,
    *,
    username: str,
    password: str,
    display_name: str,
    guest: User | None = None,
) -> User:
    """Create an account from checked values; raises UsernameTaken. A `guest` account (who
    practised first) becomes this account itself, so that its games stay its own."""
    if await find_user(db, username) is not None:
        raise UsernameTaken(username)
    user = guest if guest is not None and guest.guest else User()
    user.username = username
    user.display_name = display_name
    user.password_hash = await hash_password(password)
    user.guest = False
    db.add(user)
    try:
        await db.commit()
    except IntegrityError as error:
        # Two sign-ups raced past the look-up above; the unique index decided.
        await db.rollback()
        raise UsernameTaken(username) from error
    return user


async def authenticate(db: AsyncSession, *, username: str, password: str) -> User | None:
    """The account if the password matches, else None (equal cost whether or not it exists)."""
    user = await find_user(db, username)
    matched = await verify_password(user.password_hash if user else None, password)
    if user is None or not matched:
        return None
    if needs_rehash(user.password_hash):
        user.password_hash = await hash_password(password)
        await db.commit()
    return user


async def do_change_password(db: AsyncSession, user: User, *, old: str, new: str) -> None:
    """Replace the password after checking the old one; ends the account's other sessions."""
    if not await verify_password(user.password_hash, old):
        raise WrongPassword()
    user.password_hash = await hash_password(new)
    user.auth_epoch += 1
    await db.commit()


async def do_update_profile(db: AsyncSession, user: User, profile: Profile) -> None:
    """Save checked profile values, the mail preferences among them."""
    user.display_name = profile.display_name
    user.email = profile.email
    user.time_zone = profile.time_zone
    user.mail_digests = profile.mail_digests
    user.mail_reminders = profile.mail_reminders
    await db.commit()
