"""Login throttling: a fixed window of failed attempts per username and per client address.

Only failures count, and a throttled attempt is refused before the password is even checked,
so guessing stops paying off. Counters live in a Litestar store: the database by default,
Redis when `REDIS_URL` is set.
"""

from __future__ import annotations

from dataclasses import dataclass

from litestar.di import NamedDependency
from litestar.stores.base import Store


@dataclass(frozen=True)
class LoginThrottle:
    """Counts failed log-ins and says when to refuse the next one."""

    store: Store
    """Where counters live; each expires with its window."""
    per_user: int
    """Failures allowed for one username per window."""
    per_ip: int
    """Failures allowed from one client address per window."""
    window_seconds: int
    """Window length; it starts at the first failure."""

    async def retry_after(self, *, username: str, ip: str) -> int | None:
        """Seconds until a log-in may be tried again, or None if it may be tried now."""
        waits = [
            await self._wait(key, limit)
            for key, limit in ((_user_key(username), self.per_user), (_ip_key(ip), self.per_ip))
        ]
        blocked = [wait for wait in waits if wait is not None]
        return max(blocked) if blocked else None

    async def record_failure(self, *, username: str, ip: str) -> None:
        """Count one failed attempt against the username and the address."""
        for key in (_user_key(username), _ip_key(ip)):
            count = await self._count(key)
            remaining = await self.store.expires_in(key) if count else None
            # Keep the window's original end: a failure does not extend it.
            await self.store.set(key, str(count + 1), expires_in=remaining or self.window_seconds)

    async def forget(self, *, username: str) -> None:
        """Clear the username's counter after a successful log-in."""
        await self.store.delete(_user_key(username))

    async def _count(self, key: str) -> int:
        raw = await self.store.get(key)
        try:
            return int(raw or 0)
        except ValueError:
            return 0

    async def _wait(self, key: str, limit: int) -> int | None:
        if await self._count(key) < limit:
            return None
        return max(1, await self.store.expires_in(key) or self.window_seconds)


Throttle = NamedDependency[LoginThrottle]
"""Annotation of a handler parameter `throttle`: the app's login throttle."""


def _user_key(username: str) -> str:
    return f"user:{username[:64]}"


def _ip_key(ip: str) -> str:
    return f"ip:{ip[:64]}"
