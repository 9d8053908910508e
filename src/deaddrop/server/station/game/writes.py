"""What every write to a Station game shares beyond the hosting layer's transaction
(server/hosting/transaction.py): the row touch, public notices, the table's epoch and the game
row following the engine.

One writer per game: every write updates the game row, whose `row_version` is an optimistic
lock (`UPDATE … WHERE row_version = <read>`), and log entries are keyed by (game, seq); a
writer that lost the race rolls back (`Conflict`), and a play action is retried against the new
state — unless a Pouch or removal came in between, which refuses it as stale.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import flag_modified

from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.station import (
    State,
)
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import (
    StationAnnouncement,
    StationGame,
)
from deaddrop.server.station.game.schedule import Schedule
from deaddrop.server.station.live.stream import NOTICE_EVENT


def table_epoch(state: State) -> int:
    """The version a page's forms carry: the Pouches and host removals so far (S20, S40).

    A save from a page older than either is stale. Both are public, so the number tells no
    viewer anything it may not see; the game's own version counts every save of every seat
    (private Operations, orders, Final Cables) and must never reach a page (S26-S31).
    """
    removals = sum(1 for death in state.deaths if "removed" in death.causes)
    return len(state.history) + removals


def new_token(size: int = 16) -> str:
    """An unguessable URL-safe token."""
    return secrets.token_urlsafe(size)


def schedule_of(game: StationGame) -> Schedule:
    """The game's Pouch schedule (S40)."""
    return Schedule(game.pouch_minute, game.time_zone, game.day_minutes)


async def reload_context(db: AsyncSession, context: GameContext) -> None:
    """After a rollback, read the context's rows again (a rollback expires them)."""
    for row in (context.game, context.seat_row, context.user):
        if row is not None:
            await db.refresh(row)


def touch(game: StationGame, now: datetime) -> None:
    """Mark the game row written, so that this write takes part in the row_version check
    even when nothing else on the row changes (a handover changes only a seat row)."""
    game.updated_at = now
    flag_modified(game, "updated_at")


def announce(db: AsyncSession, game: StationGame, kind: str, text: str) -> Event:
    """Record a host action for everyone in the game to read (issue 4: never silent); the
    public event to journal with it, so that open pages show it (and the clock) at once."""
    db.add(StationAnnouncement(game_id=game.id, day=game.day, kind=kind, text=text))
    return Event(NOTICE_EVENT, {"notice": kind, "text": text}, Audience.everyone())


def follow_engine(game: StationGame, state: State, now: datetime) -> None:
    """Bring the game row's day, status and winner in line with the engine state."""
    set_on_row(game, engine_changes(state, now))


def set_on_row(game: StationGame, changes: dict[str, Any]) -> None:
    """Set `changes` (from `engine_changes`, among others) on the game row, to be written."""
    for name, value in changes.items():
        setattr(game, name, value)
    flag_modified(game, "updated_at")  # written even when `now` is the value it holds (`touch`)


def engine_changes(state: State, now: datetime) -> dict[str, Any]:
    """What the game row's attributes become to follow the engine state: its day, its status
    and winner once over, and `updated_at` (every write touches the row, `touch`)."""
    changes: dict[str, Any] = {"day": state.day, "updated_at": now}
    if state.over:
        changes.update(
            status="over",
            winner=state.winner,
            deadline=None,
            pause_ends_at=None,
            paused_remaining_seconds=None,
            ended_at=now,
        )
    return changes
