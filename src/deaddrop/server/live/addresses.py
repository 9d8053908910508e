"""Who may see each event of a game's journal, kept in memory by the game's hub (`fanout.Hub`)
so that a stream starts or resumes without reading the database.

At 5,000 open pages every stream used to read the journal at connect (its newest seq and its
cursor, which counts every row of the game): thousands of reads queued at the database while
the posts waited behind them. The hub reads these three narrow columns once when it starts
and adds each batch it hands out, so a stream's place is a count in memory, exactly what
`journal.cursor_at` and `journal.position_of` would say at the hub's last seq.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.live.journal import Listener, visible_to
from deaddrop.server.live.models import LiveEvent


class Address(NamedTuple):
    """Who may see one journal row."""

    seq: int
    public: bool
    seats: Sequence[int]


class Addresses:
    """The audience of every journal row of one stream up to `seen`, in order."""

    def __init__(self) -> None:
        self.rows: list[Address] = []
        self.counts: dict[Listener, int] = {}
        """Each listener asked about so far: how many of the rows it may see (kept current)."""

    @property
    def seen(self) -> int:
        """The newest seq held (0: none)."""
        return self.rows[-1].seq if self.rows else 0

    def extend(self, rows: Iterable[Address]) -> None:
        """Add rows newer than `seen`, oldest first (older ones are skipped)."""
        for row in rows:
            if row.seq <= self.seen:
                continue
            address = Address(row.seq, row.public, tuple(row.seats))
            self.rows.append(address)
            for listener in self.counts:
                if visible_to(address, listener):
                    self.counts[listener] += 1

    def cursor(self, listener: Listener) -> int:
        """The listener's cursor at `seen` (as `journal.cursor_at(seen)`)."""
        found = self.counts.get(listener)
        if found is None:
            found = self.counts[listener] = len(self.visible(listener))
        return found

    def visible(self, listener: Listener) -> list[int]:
        """The seqs the listener may see, in order."""
        return [row.seq for row in self.rows if visible_to(row, listener)]

    def position_of(self, listener: Listener, cursor: int) -> tuple[int, int]:
        """Where to resume a listener naming `cursor` (as `journal.position_of` at `seen`)."""
        if cursor <= 0:
            return 0, 0
        if cursor == self.cursor(listener):  # the usual case: a page built at the newest
            return self.seen, cursor
        seqs = self.visible(listener)
        if cursor >= len(seqs):
            return self.seen, len(seqs)
        return seqs[cursor - 1], cursor


async def read_addresses(db: AsyncSession, stream: str) -> Addresses:
    """Every row's audience of a stream, in one query."""
    found = Addresses()
    rows = await db.execute(
        select(LiveEvent.seq, LiveEvent.public, LiveEvent.seats)
        .where(LiveEvent.stream == stream)
        .order_by(LiveEvent.seq)
    )
    found.extend(Address(row.seq, row.public, row.seats) for row in rows)
    return found
