"""argon2id password hashing, run off the event loop (one hash costs tens of milliseconds)."""

from __future__ import annotations

import asyncio

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()
# Verified against when the username does not exist, so that a miss costs as long as a hit
# and response times do not reveal which usernames are taken.
_DUMMY_HASH = _hasher.hash("dead drop: no such officer")


async def hash_password(password: str) -> str:
    """An argon2id hash of `password` with the library's current parameters."""
    return await asyncio.to_thread(_hasher.hash, password)


async def verify_password(password_hash: str | None, password: str) -> bool:
    """Whether `password` matches; a missing hash still spends the same time and fails."""
    return await asyncio.to_thread(
        _verify, password_hash or _DUMMY_HASH, password_hash is None, password
    )


def needs_rehash(password_hash: str) -> bool:
    """Whether the hash was made with older parameters and should be replaced at log-in."""
    return _hasher.check_needs_rehash(password_hash)


def _verify(password_hash: str, always_fail: bool, password: str) -> bool:
    try:
        matched = _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
    return matched and not always_fail
