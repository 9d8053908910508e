"""One writer per game in this process: its saves queue on a lock instead of colliding in the
database, whose row version still guards against writers in other processes."""

from __future__ import annotations

import asyncio
import weakref

_locks: weakref.WeakValueDictionary[tuple[int, str, str], asyncio.Lock] = (
    weakref.WeakValueDictionary()
)


def writer_lock(game_kind: str, public_id: str) -> asyncio.Lock:
    """This process's lock for writing one game (per event loop: tests run several)."""
    key = (id(asyncio.get_running_loop()), game_kind, public_id)
    lock = _locks.get(key)
    if lock is None:
        lock = asyncio.Lock()
        _locks[key] = lock
    return lock
