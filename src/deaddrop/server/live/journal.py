"""Write events to a game's journal inside the caller's transaction; read them back per seat."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.events import Event
from deaddrop.server.live.models import LiveEvent

EVERYONE = "everyone"
"""A listener that may read everything of a game: its players after the game (S26)."""

Listener = int | None | str
"""A seat, None for the public (spectators), or EVERYONE."""


def stream_name(game_kind: str, public_id: str) -> str:
    """The journal stream of one game."""
    return f"{game_kind}:{public_id}"


async def last_seq(db: AsyncSession, stream: str) -> int:
    """The newest sequence number of a stream (0 when empty)."""
    found = await db.scalar(select(func.max(LiveEvent.seq)).where(LiveEvent.stream == stream))
    return int(found or 0)


async def append(db: AsyncSession, stream: str, events: Iterable[Event]) -> int:
    """Journal events after the stream's last one; returns the new last sequence number.

    The caller holds the game's single-writer lock (DESIGN.md), so numbering from the current
    maximum is safe; the unique (stream, seq) constraint turns a mistake into an error, not a
    silently merged stream. Nothing is committed here.
    """
    seq = await last_seq(db, stream)
    for event in events:
        seq += 1
        db.add(
            LiveEvent(
                stream=stream,
                seq=seq,
                kind=event.kind,
                public=event.audience.public,
                seats=sorted(event.audience.seats),
                payload=dict(event.payload),
            )
        )
    await db.flush()
    return seq


class Addressed(Protocol):
    """A journal row, or the columns of one that say who may see it."""

    @property
    def public(self) -> bool: ...

    @property
    def seats(self) -> list[int]: ...


def visible_to(row: Addressed, listener: Listener) -> bool:
    """Whether a listener may see a journaled event (deny by default)."""
    if row.public or listener == EVERYONE:
        return True
    return isinstance(listener, int) and listener in row.seats


PAGE = 500
"""Journal rows read at a time."""


async def read_after(
    db: AsyncSession, stream: str, after: int, limit: int = PAGE
) -> list[LiveEvent]:
    """Every journaled event after `after`, oldest first, whoever may see it (filter next)."""
    rows = await db.scalars(
        select(LiveEvent)
        .where(LiveEvent.stream == stream, LiveEvent.seq > after)
        .order_by(LiveEvent.seq)
        .limit(limit)
    )
    return list(rows)


async def events_since(
    db: AsyncSession, stream: str, after: int, listener: Listener, limit: int = PAGE
) -> list[LiveEvent]:
    """The events after `after` that this listener may see, oldest first."""
    return [row for row in await read_after(db, stream, after, limit) if visible_to(row, listener)]


def payloads(rows: Sequence[LiveEvent]) -> list[dict[str, Any]]:
    """Rows as JSON-ready dicts (seq, kind, payload), for the JSON API and tests."""
    return [{"seq": row.seq, "kind": row.kind, **row.payload} for row in rows]
