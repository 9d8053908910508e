"""`KnownPositions`: where each listener stands in a journal stream, as this process last knew
it: per stream, each listener's (seq, cursor), the cursor counting the rows up to seq that the
listener may see (`journal.cursor_at`).

The journal is append-only and numbered without gaps (a unique (stream, seq)), so a pair once
true stays true. A page that reads the journal keeps what it found (station/tabs/positions.py:
the next page reads only the rows after it); a writer of this process that journals rows moves
every listener known at the seq just before them on past them (`follow`), counting the rows
each may see: a post then tells its poster's cursor without a read of its own. A listener known
only at an older seq (another process or a write not followed came in between) stays there,
and the next read completes it from the database.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.hosting.memo import Memo
from deaddrop.server.live.journal import Addressed, Listener, visible_to

KNOWN_POSITIONS_KEY = "known_positions"
"""Where an app's sessions (`db.info`) and `app.state` hold its `KnownPositions`."""

Position = tuple[int, int]
"""(a seq of the stream, the listener's cursor there)."""


class KnownPositions:
    """The newest known position of each listener, per stream, for the `streams` streams used
    most recently (a game's listeners: its seats, the public and everyone)."""

    def __init__(self, streams: int = 1024) -> None:
        self._streams: Memo[str, dict[Listener, Position]] = Memo(streams)

    def get(self, stream: str, listener: Listener) -> Position | None:
        """The listener's newest known position in `stream`, if any."""
        found = self._streams.get(stream)
        return None if found is None else found.get(listener)

    def advance(self, stream: str, listener: Listener, seq: int, cursor: int) -> None:
        """Keep a position read or reached: never moves a known one back."""
        listeners = self._listeners(stream)
        known = listeners.get(listener)
        if known is None or known[0] < seq:
            listeners[listener] = (seq, cursor)

    def follow(self, stream: str, seq: int, rows: Sequence[Addressed]) -> None:
        """`rows`, the stream's rows up to `seq` (numbered `seq - len(rows) + 1` on), were just
        committed by this process: every listener known right before them moves on to `seq`."""
        listeners = self._streams.get(stream)
        if listeners is None or not rows:
            return
        before = seq - len(rows)
        # A public row counts for everyone: only the others are asked about (`visible_to`).
        private = [row for row in rows if not row.public]
        public = len(rows) - len(private)
        # Only values are replaced (no key added or removed): iterating the dict stays valid.
        for listener, (known, cursor) in listeners.items():
            if known == before:
                seen = public + sum(1 for row in private if visible_to(row, listener))
                listeners[listener] = (seq, cursor + seen)

    def _listeners(self, stream: str) -> dict[Listener, Position]:
        found = self._streams.get(stream)
        if found is None:
            found = {}
            self._streams.put(stream, found)
        return found


def known_positions(db: AsyncSession) -> KnownPositions:
    """The known positions of the app whose session `db` is; a session of no app (a command, a
    test's own) gets its own, kept as long as it is."""
    found = db.info.get(KNOWN_POSITIONS_KEY)
    if found is None:  # built only when missing: this runs on every page and post
        found = db.info[KNOWN_POSITIONS_KEY] = KnownPositions()
    assert isinstance(found, KnownPositions)
    return found
