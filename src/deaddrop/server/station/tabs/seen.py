"""Where each player last looked, per tab, and the tab bar's "new" badges built from it.

A look is recorded when a tab is rendered for its player: a full page load, or a push to a
page that is open on that tab. Badges count the journal events the player may see (the
engine's audience, as for live pushes) that each tab shows after that tab's last look.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from sqlalchemy import Select, and_, bindparam, case, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.db.driver import send_in
from deaddrop.server.db.upsert import insert_for
from deaddrop.server.live import journal
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.live.stream import listener_of as listener_of  # where it was
from deaddrop.server.station.live.stream import stream_of
from deaddrop.server.station.tabs.badges import KINDS_SHOWN_ON, Reader, badge_text, count_new
from deaddrop.server.station.tabs.memos import Tally, page_memos
from deaddrop.server.station.tabs.seen_models import StationTabSeen

WINDOW = 2000
"""Newest journal rows read for badges: a bound per page load, however long the game (what
lies further back than that is old news, not "new since you looked")."""


async def mark_seen(db: AsyncSession, game_id: int, user_id: int, tab: str, seq: int) -> None:
    """Record that the player has seen `tab` up to `seq` (never moves back) and commit."""
    table = StationTabSeen.__table__
    insert = insert_for(db, table).values(game_id=game_id, user_id=user_id, tab=tab, seq=seq)
    # Two pages of one player may report at once, in any order: keep the furthest.
    furthest = case((insert.excluded.seq > table.c.seq, insert.excluded.seq), else_=table.c.seq)
    await db.execute(
        insert.on_conflict_do_update(
            index_elements=["game_id", "user_id", "tab"], set_={"seq": furthest}
        )
    )
    await db.commit()


async def seen_of(db: AsyncSession, game_id: int, user_id: int) -> dict[str, int]:
    """The player's last-seen journal position per tab (absent: never looked)."""
    rows = await db.execute(_SEEN, {"game": game_id, "user": user_id})
    return {row.tab: row.seq for row in rows}


_SEEN = select(StationTabSeen.tab, StationTabSeen.seq).where(
    StationTabSeen.game_id == bindparam("game"), StationTabSeen.user_id == bindparam("user")
)
"""A player's last looks (read on every page of theirs): built once."""


async def tab_badges(
    db: AsyncSession,
    context: GameContext,
    codename: str,
    tabs: list[str],
    seen: dict[str, int] | None = None,
    at: int | None = None,
) -> dict[str, str]:
    """Badge text per tab for the context's player ({} for a spectator, or once it is over);
    `seen` is the player's `seen_of` when the caller has read it already; `at`, the journal's
    newest seq the page read, counts up to there (and lets another look there reuse it)."""
    # After the game nothing is "new since you looked": every tab is the final record (S26).
    if context.seat is None or context.user is None or context.game.status == "over":
        return {}
    if seen is None:
        seen = await seen_of(db, context.game.id, context.user.id)
    wanted = [tab for tab in tabs if tab in KINDS_SHOWN_ON]
    if not wanted:
        return {}
    stream = stream_of(context.game.public_id)
    # Badges by (stream, seat, codename, each tab's last look, journal position): the journal
    # up to a position never changes, so neither does what a seat counts there. One seat's.
    looks = tuple((tab, seen.get(tab, 0)) for tab in wanted)
    key = (stream, context.seat, codename, looks, at)
    memos = page_memos(db)
    found = memos.badges.get(key) if at is not None else None
    if found is None:
        # The same seat's newest count, which this one goes on from where the looks agree.
        earlier = memos.tallies.get(key[:3])
        tally = await _tally(db, context, codename, stream, dict(looks), at, earlier)
        found = {tab: badge_text(n) for tab, n in tally.counts.items() if n}
        if at is not None:
            memos.tallies.put(key[:3], tally)
            memos.badges.put(key, found)
    return dict(found)


async def _tally(
    db: AsyncSession,
    context: GameContext,
    codename: str,
    stream: str,
    looks: dict[str, int],
    at: int | None,
    known: Tally | None,
) -> Tally:
    """The counts of `looks`' tabs up to `at` (the newest when None). The journal is
    append-only, so a tab whose look is the one an older count (`known`) started from goes on
    with the rows after that count alone, and a tab looked at since (or not counted then) counts
    from its look; while the rows counted stay within the newest-`WINDOW` bound. Otherwise the
    journal is read afresh."""
    if known is not None and at is not None and known.upto <= at:
        before = dict(known.looks)
        going_on = {tab for tab, look in looks.items() if before.get(tab) == look}
        bounds = {
            tab: max(look, known.upto) if tab in going_on else look for tab, look in looks.items()
        }
        rows = await _news(db, stream, bounds, upto=at)
        # At most the rows counted before and these: every look only ever moves on. Going on
        # equals a count afresh while neither count was cut by the window, nor would be.
        matched = known.matched + len(rows)
        if known.matched < WINDOW and len(rows) < WINDOW and matched <= WINDOW:
            counts = {tab: known.counts.get(tab, 0) if tab in going_on else 0 for tab in looks}
            for tab, count in _counts(context, codename, bounds, rows).items():
                if tab in counts:
                    counts[tab] += count
            return Tally(at, matched, counts, tuple(looks.items()))
    rows = await _news(db, stream, looks, upto=at)
    upto = at if at is not None else max((row.seq for row in rows), default=0)
    counted = _counts(context, codename, looks, rows)
    counts = {tab: counted.get(tab, 0) for tab in looks}  # not the tab being read
    return Tally(upto, len(rows), counts, tuple(looks.items()))


class News(NamedTuple):
    """A journal row `_news` reads: its audience for `journal.visible_to`, what it says."""

    seq: int
    kind: str
    public: bool
    seats: list[int]
    payload: dict[str, Any]


async def _news(
    db: AsyncSession, stream: str, seen: dict[str, int], upto: int | None
) -> list[News]:
    """The journal rows `seen`'s tabs may count, up to `upto`, the newest `WINDOW`."""
    values: dict[str, Any] = {f"last_{tab}": last for tab, last in seen.items()}
    values.update(stream=stream, window=WINDOW, since=min(seen.values(), default=0))
    if upto is not None:
        values["upto"] = upto
    # Straight through the driver on SQLite (db/driver.py): a page after any event reads it.
    found = await send_in(db, _news_query(tuple(seen), upto), values)
    return [News(*row) for row in found.rows]


_NEWS: dict[tuple[tuple[str, ...], bool], Select[Any]] = {}
"""`_news`'s statements by (tabs, bounded above): a handful, each built once."""


def _news_query(tabs: tuple[str, ...], upto: int | None) -> Select[Any]:
    """The statement of `_news` for these tabs (values bound by name, the window too)."""
    shape = (tabs, upto is not None)
    query = _NEWS.get(shape)
    if query is not None:
        return query
    # Per tab, only its own kinds after its own last look: a tab never opened (Operations, for
    # a player without an ability) then costs a few rows, not the whole journal.
    # The kinds as equalities, not `IN (…)`: a list is bound anew at every execution, which
    # keeps the statement from the driver; these are bound once.
    news = or_(
        *(
            and_(
                or_(*(LiveEvent.kind == kind for kind in sorted(KINDS_SHOWN_ON[tab]))),
                LiveEvent.seq > bindparam(f"last_{tab}"),
            )
            for tab in tabs
        )
    )
    # Every tab's rows lie after the earliest of the looks: said apart, it bounds the walk down
    # the (stream, seq) index, which the per-tab bounds inside the OR cannot (without it, every
    # page walked its game's whole journal).
    since = LiveEvent.seq > bindparam("since")
    query = select(
        LiveEvent.seq, LiveEvent.kind, LiveEvent.public, LiveEvent.seats, LiveEvent.payload
    ).where(LiveEvent.stream == bindparam("stream"), since, news)
    if upto is not None:
        query = query.where(LiveEvent.seq <= bindparam("upto"))
    query = query.order_by(LiveEvent.seq.desc()).limit(bindparam("window"))
    _NEWS[shape] = query
    return query


def _counts(
    context: GameContext, codename: str, seen: dict[str, int], rows: Sequence[News]
) -> dict[str, int]:
    """How many of `rows` the context's seat may see, per tab that shows them after its look."""
    listener = listener_of(context)
    visible = [(r.seq, r.kind, r.payload) for r in rows if journal.visible_to(r, listener)]
    assert context.seat is not None  # a player's (tab_badges returns early for spectators)
    return count_new(visible, seen, Reader(context.seat, codename))
