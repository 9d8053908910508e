"""`PageMemos`: what an app's tab pages reuse within its process, one set per app.

Each memo is keyed by every value its answer depends on (a journal position, a row version,
the reader's seat), so nothing needs telling when the database moves on. They belong to the
app (`app.state` and its sessions' `db.info`) rather than to the module: two apps in one
process (the tests build many, each on its own database) never see each other's entries,
where the same game id and journal seq may name another game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.hosting.memo import Memo
from deaddrop.server.station.tabs.info import Announcement, SeatInfo

PAGE_MEMOS_KEY = "page_memos"
"""Where an app's sessions (`db.info`) and `app.state` hold its `PageMemos`."""

BadgeKey = tuple[str, int, str, tuple[tuple[str, int], ...], int | None]
"""(stream, seat, codename, each tab's last look, journal position)."""
TallyKey = tuple[str, int, str]
"""(stream, seat, codename): a `BadgeKey` but the looks and the journal position."""
TableKey = tuple[str, int, int]
"""(game public id, row version, version)."""
TableRows = tuple[tuple[SeatInfo, ...], tuple[Announcement, ...]]
TableAt = tuple[int, TableRows]
"""The table as read at a journal seq (tabs/info_builder.py: the same from any seq between
which only today's posts were journaled)."""
JournalAt = tuple[str, int]
"""(a game's public id, its journal's newest seq as a page read it)."""
ShownKey = tuple[JournalAt, str, tuple[int, ...], int | None, str]
"""(game and journal position, channel, the readable days, `before`, zone)."""
Shown = tuple[list[dict[str, Any]], int | None, Markup]
"""A channel's newest messages as shown, the id to page back from, their HTML."""


@dataclass(frozen=True)
class Tally:
    """A seat's badge counts for its looks, up to a journal position (tabs/seen.py)."""

    upto: int
    """The journal seq counted up to."""
    matched: int
    """The journal rows the looks' tabs may count (before the seat's audience), or more once
    counts went on (a bound), at most `seen.WINDOW`: past it, a count is made afresh over the
    newest rows."""
    counts: dict[str, int]
    """Per tab counted, the rows after its look that the seat may see."""
    looks: tuple[tuple[str, int], ...] = ()
    """Each counted tab's last look: its count goes on from here only while it is the same."""


@dataclass
class PageMemos:
    """The memos of one app's pages; the sizes bound each process's memory."""

    badges: Memo[BadgeKey, dict[str, str]] = field(default_factory=lambda: Memo(8192))
    tallies: Memo[TallyKey, Tally] = field(default_factory=lambda: Memo(8192))
    """The newest count per seat, which the next journal position goes on from."""
    tables: Memo[TableKey, TableAt] = field(default_factory=lambda: Memo(2048))
    shown: Memo[ShownKey, Shown] = field(default_factory=lambda: Memo(2048))
    pages: Memo[bytes, bytes] = field(default_factory=lambda: Memo(1024))
    """Rendered tab pages by the digest of all they show (server/render_memo.py)."""


def page_memos(db: AsyncSession) -> PageMemos:
    """The memos of the app whose session `db` is; a session of no app (a command, a test's
    own) gets memos of its own, kept as long as it is."""
    memos = db.info.get(PAGE_MEMOS_KEY)
    if memos is None:  # built only when missing: this runs several times a page
        memos = db.info[PAGE_MEMOS_KEY] = PageMemos()
    assert isinstance(memos, PageMemos)
    return memos
