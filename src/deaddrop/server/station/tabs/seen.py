"""Where each player last looked, per tab, and the tab bar's "new" badges built from it.

A look is recorded when a tab is rendered for its player: a full page load, or a push to a
page that is open on that tab. Badges count the journal events the player may see (the
engine's audience, as for live pushes) that each tab shows after that tab's last look.
"""

from __future__ import annotations

from sqlalchemy import and_, bindparam, case, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.db.upsert import insert_for
from deaddrop.server.live import journal
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.live.stream import listener_of as listener_of  # where it was
from deaddrop.server.station.live.stream import stream_of
from deaddrop.server.station.tabs.badges import KINDS_SHOWN_ON, Reader, badge_text, count_new
from deaddrop.server.station.tabs.memos import page_memos
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
    key = (stream, context.seat, codename, tuple((tab, seen.get(tab, 0)) for tab in wanted), at)
    badges = page_memos(db).badges
    found = badges.get(key) if at is not None else None
    if found is None:
        found = await _count_badges(db, context, codename, stream, dict(key[3]), at)
        if at is not None:
            badges.put(key, found)
    return dict(found)


async def _count_badges(
    db: AsyncSession,
    context: GameContext,
    codename: str,
    stream: str,
    seen: dict[str, int],
    at: int | None,
) -> dict[str, str]:
    """The badges of `seen`'s tabs from the journal (up to `at` when given)."""
    # Per tab, only its own kinds after its own last look: a tab never opened (Operations, for
    # a player without an ability) then costs a few rows, not the whole journal.
    news = or_(
        *(
            and_(LiveEvent.kind.in_(KINDS_SHOWN_ON[tab]), LiveEvent.seq > last)
            for tab, last in seen.items()
        )
    )
    query = select(
        LiveEvent.seq, LiveEvent.kind, LiveEvent.public, LiveEvent.seats, LiveEvent.payload
    ).where(LiveEvent.stream == stream, news)
    if at is not None:
        query = query.where(LiveEvent.seq <= at)
    rows = (await db.execute(query.order_by(LiveEvent.seq.desc()).limit(WINDOW))).all()
    listener = listener_of(context)
    visible = [(r.seq, r.kind, r.payload) for r in rows if journal.visible_to(r, listener)]
    assert context.seat is not None  # a player's (tab_badges returns early for spectators)
    counts = count_new(visible, seen, Reader(context.seat, codename))
    return {tab: badge_text(count) for tab, count in counts.items() if count and tab in seen}
