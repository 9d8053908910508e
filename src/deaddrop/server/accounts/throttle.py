"""Login throttling: a fixed window of failed attempts per username and per client address.

An attempt is counted before its password is checked, in one atomic step per counter
(`counters.py`), and refused there when it would go past a limit: of any number of
simultaneous guesses only as many as the limit reach the password check. A successful
log-in takes its attempt back, so in effect only failures count. Counters live in a
Litestar store: the database by default, Redis when `REDIS_URL` is set.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from litestar.di import NamedDependency
from litestar.stores.base import Store

from deaddrop.server.accounts.counters import Counters


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
    counters: Counters = field(init=False, repr=False, compare=False)
    """Atomic adds to the counters in `store`."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "counters", Counters(self.store))

    async def claim(self, *, username: str, ip: str) -> int | None:
        """Count an attempt about to be checked: None if its password may be checked now,
        else the seconds until one may (and the password must not be checked)."""
        wait = await self.retry_after(username=username, ip=ip)
        if wait is not None:
            return wait  # already over a limit: refused without counting
        counted: list[str] = []
        for key, limit in self._limits(username, ip):
            if await self.counters.add(key, 1, self.window_seconds) > limit:
                # This attempt's count past the limit stays (taking it back could let a later
                # guess in while the first ones are still being checked); what it added to the
                # counters before this one is taken back, as it checks no password.
                for earlier in counted:
                    await self.counters.add(earlier, -1, self.window_seconds)
                return await self._remaining(key)
            counted.append(key)
        return None

    async def succeeded(self, *, username: str, ip: str) -> None:
        """The claimed attempt matched: clear the username's counter, give the address
        its attempt back."""
        await self.forget(username=username)
        await self.counters.add(_ip_key(ip), -1, self.window_seconds)

    async def retry_after(self, *, username: str, ip: str) -> int | None:
        """Seconds until a log-in may be tried again, or None if it may be tried now."""
        waits = [await self._wait(key, limit) for key, limit in self._limits(username, ip)]
        blocked = [wait for wait in waits if wait is not None]
        return max(blocked) if blocked else None

    async def record_failure(self, *, username: str, ip: str) -> None:
        """Count one failed attempt against the username and the address."""
        for key, _ in self._limits(username, ip):
            await self.counters.add(key, 1, self.window_seconds)

    async def forget(self, *, username: str) -> None:
        """Clear the username's counter after a successful log-in."""
        await self.store.delete(_user_key(username))

    def _limits(self, username: str, ip: str) -> tuple[tuple[str, int], ...]:
        return ((_user_key(username), self.per_user), (_ip_key(ip), self.per_ip))

    async def _count(self, key: str) -> int:
        raw = await self.store.get(key)
        try:
            return int(raw or 0)
        except ValueError:
            return 0

    async def _wait(self, key: str, limit: int) -> int | None:
        if await self._count(key) < limit:
            return None
        return await self._remaining(key)

    async def _remaining(self, key: str) -> int:
        return max(1, await self.store.expires_in(key) or self.window_seconds)


Throttle = NamedDependency[LoginThrottle]
"""Annotation of a handler parameter `throttle`: the app's login throttle."""


def _user_key(username: str) -> str:
    return f"user:{username[:64]}"


def _ip_key(ip: str) -> str:
    return f"ip:{ip[:64]}"
