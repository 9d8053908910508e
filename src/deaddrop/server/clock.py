"""Where the server reads the time: the `Clock` every game, runner and the mailer is given.

Every stored time is aware UTC. Tests drive time with the clocks of `server/testing/clocks.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol, runtime_checkable


@runtime_checkable
class Clock(Protocol):
    """Where the server reads the time."""

    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        ...


class SystemClock:
    """The machine's clock."""

    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        return datetime.now(UTC)


@runtime_checkable
class JumpingClock(Protocol):
    """A clock whose time can jump (the browser tests' offset clock): whoever waits on a
    deadline is woken at each jump rather than at its next poll."""

    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        ...

    async def watch(self, on_jump: Callable[[], None]) -> None:
        """Call `on_jump` at each jump; runs until cancelled."""
        ...
