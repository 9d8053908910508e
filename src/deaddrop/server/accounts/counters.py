"""Counters with a window, added to in one atomic step in whichever store holds them.

Litestar's `Store` has no increment, and a read followed by a write lets simultaneous
requests all read the same count. So the database store adds with a conditional update,
Redis with INCRBY inside a script, and an in-process store under a lock.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from litestar.stores.base import Store
from litestar.stores.redis import RedisStore

from deaddrop.server.db.store import DatabaseStore

# One step on the server: add, start the window on a new key (a live key keeps its own),
# and never count below zero.
_REDIS_ADD = """
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count < 0 then
  redis.call('SET', KEYS[1], 0, 'KEEPTTL')
  count = 0
end
if redis.call('TTL', KEYS[1]) < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return count
"""


@dataclass
class Counters:
    """Integers under keys of `store`, each expiring with its window."""

    store: Store
    """Where the counts live; read them back with `store.get`."""
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    async def add(self, key: str, amount: int, window_seconds: int) -> int:
        """Add `amount` (may be negative) to the count under `key` and return the new count;
        a new or expired key starts at 0 with a window of `window_seconds`."""
        store = self.store
        if isinstance(store, DatabaseStore):
            return await store.increment(key, amount, expires_in=window_seconds)
        if isinstance(store, RedisStore):
            # The store's own client and key scheme, so that `store.get` reads this count.
            redis, full_key = store._redis, store._make_key(key)
            return int(await redis.eval(_REDIS_ADD, 1, full_key, amount, window_seconds))
        async with self._lock:  # an in-memory store lives in this one process
            count = max(0, _as_count(await store.get(key)) + amount)
            remaining = await store.expires_in(key)
            await store.set(key, str(count), expires_in=remaining or window_seconds)
            return count


def _as_count(raw: bytes | None) -> int:
    try:
        return int(raw or 0)
    except ValueError:
        return 0
