"""`build_game_info`: fill the `GameInfo` contract for one viewer of a started game."""

from __future__ import annotations

from sqlalchemy import bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import State
from deaddrop.server.accounts.models import User
from deaddrop.server.db.driver import send_in
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import (
    StationAnnouncement,
    StationGame,
    StationSeat,
    StationSeatHolder,
)
from deaddrop.server.station.game.writes import table_epoch
from deaddrop.server.station.host import table_limits
from deaddrop.server.station.live.stream import MESSAGE_EVENT, stream_of
from deaddrop.server.station.practice.pace import shown_deadline
from deaddrop.server.station.standins.ledger import stood_in_days
from deaddrop.server.station.tabs.info import Announcement, GameInfo, SeatInfo
from deaddrop.server.station.tabs.memos import TableRows, page_memos


def spectator_path(game: StationGame) -> str | None:
    """The public spectator link's path, while the host has it on."""
    return None if game.spectator_token is None else f"/watch/{game.spectator_token}"


async def build_game_info(
    db: AsyncSession, context: GameContext, state: State, at: int | None = None
) -> GameInfo:
    """What the tabs need besides the engine's view, for the context's viewer; `at`, the
    journal's newest seq read before this, lets a page reuse what another page read there."""
    game = context.game
    seats, announcements = await _table_rows(db, game, state, at)
    viewer_zone = context.user.time_zone if context.user is not None else game.time_zone
    host = context.is_host
    return GameInfo(
        game_id=game.public_id,
        title=game.title,
        status=game.status,
        seat=context.seat,
        is_host=host,
        deadline=shown_deadline(game),
        game_time_zone=game.time_zone,
        viewer_time_zone=viewer_zone,
        early_pouch=game.early_pouch,
        seats=seats,
        spectator_url=spectator_path(game) if host else None,
        version=table_epoch(state),
        announcements=announcements,
        pause_ends_at=game.pause_ends_at,
        host_tools_url=f"/games/{game.public_id}/host" if host else None,
        inactive_prompt=tuple(s.codename for s in seats if s.inactive) if host else (),
        practice=game.practice,
    )


async def _table_rows(
    db: AsyncSession, game: StationGame, state: State, at: int | None
) -> TableRows:
    """The seats' infos and the host's notices, oldest first; kept per row version and
    version with the journal seq they were read at (while the game runs: after the end the
    seats show people's names, S26, which an account may change without a journal event)."""
    # A handover, a stand-in, a removal or a notice bumps the row version or the version or
    # journals an event of its own, so the table read at one seq is the table at another of
    # the same versions when only today's posts were journaled in between: a post changes
    # no seat's mark (is_inactive_now counts the days the Pouches resolved, never today).
    # Public to every viewer.
    key = (game.public_id, game.row_version, game.version)
    tables = page_memos(db).tables
    kept = tables.get(key) if at is not None and not state.over else None
    if kept is not None and at is not None:
        seq, found = kept
        low, high = min(seq, at), max(seq, at)
        if low == high or await only_posts_of_day(
            db, stream_of(game.public_id), low, high, state.day
        ):
            if at > seq:
                tables.put(key, (at, found))
            return found
    rows = await db.scalars(
        select(StationAnnouncement)
        .where(StationAnnouncement.game_id == game.id)
        .order_by(StationAnnouncement.id)
    )
    notices = tuple(Announcement(a.day, a.kind, a.text, a.created_at) for a in rows)
    found = (await seat_infos(db, game, state), notices)
    if at is not None and not state.over and (kept is None or at > kept[0]):
        tables.put(key, (at, found))
    return found


SPAN_MOST = 64
"""Journal rows read to see whether a kept table still holds: past it, read the table."""
_SPAN = (
    select(LiveEvent.kind, LiveEvent.payload)
    .where(
        LiveEvent.stream == bindparam("stream"),
        LiveEvent.seq > bindparam("low"),
        LiveEvent.seq <= bindparam("high"),
    )
    .limit(SPAN_MOST + 1)
)
"""The journal between two seqs (read on a page after every post): built once."""


async def only_posts_of_day(db: AsyncSession, stream: str, low: int, high: int, day: int) -> bool:
    """Whether the journal rows in (low, high] are all chat posts of `day` (and few)."""
    # Straight through the driver on SQLite (db/driver.py): every page after a post sends it.
    rows = (await send_in(db, _SPAN, {"stream": stream, "low": low, "high": high})).rows
    # A post stored for an older day (its writer read the game before a Pouch another
    # process committed) changes that day's marks: only today's posts are no change.
    return len(rows) <= SPAN_MOST and all(
        kind == MESSAGE_EVENT and payload.get("day") == day for kind, payload in rows
    )


async def seat_infos(db: AsyncSession, game: StationGame, state: State) -> tuple[SeatInfo, ...]:
    """Per seat: previous holders, inactivity, and the person's name once the game is over."""
    rows = (
        await db.execute(
            select(
                StationSeat.seat,
                StationSeat.first_full_day,
                User.display_name,
                StationSeat.bot_level,
            )
            .outerjoin(User, User.id == StationSeat.user_id)
            .where(StationSeat.game_id == game.id, StationSeat.seat.is_not(None))
        )
    ).all()
    by_seat = {seat: (first_day, name, bot) for seat, first_day, name, bot in rows}
    previous: dict[int, int] = {
        seat: count
        for seat, count in (
            await db.execute(
                select(StationSeatHolder.seat, func.count())
                .where(StationSeatHolder.game_id == game.id)
                .group_by(StationSeatHolder.seat)
            )
        ).all()
    }
    posted: dict[int, set[int]] = {}
    for seat_index, day in (
        await db.execute(
            select(StationMessage.seat, StationMessage.day)
            .where(StationMessage.game_id == game.id)
            .distinct()
        )
    ).all():
        posted.setdefault(seat_index, set()).add(day)
    absent = await stood_in_days(db, game.id, state.day)  # a stand-in's day is an absence
    infos = []
    for seat in state.seats:
        first_day, name, bot_level = by_seat.get(seat.index, (1, None, None))
        days_posted = frozenset(posted.get(seat.index, ()))
        infos.append(
            SeatInfo(
                codename=seat.codename,
                # S3: people stay behind codenames until the end (S26).
                display_name=name if state.over else None,
                previous_holders=previous.get(seat.index, 0),
                # A practice game marks nobody inactive: its bots are never idle, and the
                # person alone sets its pace; the mark is for a host deciding on a replacement.
                inactive=not game.practice
                and is_inactive_now(
                    state, seat.index, first_day, days_posted, absent.get(seat.index, frozenset())
                ),
                bot_level=bot_level,
            )
        )
    return tuple(infos)


def is_inactive_now(
    state: State,
    seat: int,
    first_full_day: int,
    posted_days: frozenset[int] = frozenset(),
    absent_days: frozenset[int] = frozenset(),
) -> bool:
    """Inactive two days running (table_limits.py), as the last Pouch left it.

    Only days the Pouches resolved count, never today's saves: the mark is shown to everyone,
    and lifting it at a private act (an Operation saved, a Ring post) would announce that act
    (S26-S31). Like every other change of the Roster, it changes at a Pouch or a removal.
    """
    if state.over or not state.alive[seat]:
        return False
    return table_limits.is_inactive(state.history, seat, first_full_day, posted_days, absent_days)
