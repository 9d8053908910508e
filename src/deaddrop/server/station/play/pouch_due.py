"""The in-process doorbell of the Pouch runner: a save that made a Pouch due at once (S41), or
a resume past the deadline, rings it so the runner need not wait for its next poll.

Open pages do not listen here: they read the journal (`server/live/`), which also reaches
other processes and replays after a reconnect.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncSession


class PouchDue:
    """Tells the runners of this process that a committed change made a Pouch due now."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[], None]] = []

    def on_pouch_due(self, listener: Callable[[], None]) -> None:
        """Be told when a Pouch became due early (S41), e.g. to wake the in-process runner."""
        self._listeners.append(listener)

    def off_pouch_due(self, listener: Callable[[], None]) -> None:
        """Stop being told."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def pouch_due(self) -> None:
        """A committed change made a Pouch due now."""
        for listener in list(self._listeners):
            listener()


POUCH_DUE_KEY = "station_pouch_due"
"""Where an app's sessions (`db.info`) and `app.state` hold its doorbell."""


def pouch_due_of(db: AsyncSession) -> PouchDue:
    """The doorbell of the app whose sessionmaker made `db` (the service rings it)."""
    doorbell = db.info.setdefault(POUCH_DUE_KEY, PouchDue())
    assert isinstance(doorbell, PouchDue)
    return doorbell
