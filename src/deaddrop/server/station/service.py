"""`do_*`: every write to a Station game, each one transaction, its events journaled in it.

One writer per game: every write updates the game row, whose `row_version` is an optimistic
lock (`UPDATE … WHERE row_version = <read>`), and log entries are keyed by (game, seq); a
writer that lost the race rolls back, and a play action is retried against the new state —
unless a Pouch or removal came in between, which refuses it as stale.
"""

from __future__ import annotations

import asyncio
import math
import random
import secrets
import weakref
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import flag_modified
from sqlalchemy.orm.exc import StaleDataError

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.station import (
    Action,
    RemovePlayer,
    StationSetup,
    StationState,
    all_done,
    apply,
    start,
)
from deaddrop.engine.station.codec import action_to_json, setup_to_json
from deaddrop.engine.station.roles import MAX_PLAYERS
from deaddrop.server.accounts.models import User
from deaddrop.server.db.base import utcnow
from deaddrop.server.station import table_limits
from deaddrop.server.station.access import GameContext
from deaddrop.server.station.clock import Clock, Schedule, next_deadline
from deaddrop.server.station.game_stream import NOTICE_EVENT, journal_events, wake_game
from deaddrop.server.station.models import (
    StationAction,
    StationAnnouncement,
    StationGame,
    StationSeat,
    StationSeatHolder,
)
from deaddrop.server.station.pouch_due import POUCH_DUE
from deaddrop.server.station.refusals import Refused, Stale, explain
from deaddrop.server.station.store import load_state, remember

ATTEMPTS = 5
"""How often a play action is retried when another process wrote to the game first."""

_writers: weakref.WeakValueDictionary[tuple[int, str], asyncio.Lock] = weakref.WeakValueDictionary()


class Conflict(Exception):
    """Another writer changed the game in the meantime; nothing was stored."""


@dataclass(frozen=True)
class NewGame:
    """Checked values of the create-game form."""

    title: str
    pouch_minute: int
    time_zone: str
    day_minutes: int = table_limits.MAX_DAY_MINUTES
    early_pouch: bool = False


@dataclass(frozen=True)
class Acted:
    """What a stored action did."""

    state: StationState
    """The game after it."""
    version: int
    """The game's version after it."""
    events: tuple[Event, ...]
    """What it told whom (journaled with it)."""


def table_epoch(state: StationState) -> int:
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


async def commit(db: AsyncSession) -> None:
    """Commit, turning a lost race for the game row (or a log key) into `Conflict`."""
    try:
        await db.commit()
    except (StaleDataError, IntegrityError) as error:
        await db.rollback()
        raise Conflict() from error


async def _reload(db: AsyncSession, context: GameContext) -> None:
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


def follow_engine(game: StationGame, state: StationState, now: datetime) -> None:
    """Bring the game row's day, status and winner in line with the engine state."""
    game.day = state.day
    touch(game, now)
    if state.over:
        game.status = "over"
        game.winner = state.winner
        game.deadline = None
        game.pause_ends_at = None
        game.paused_remaining_seconds = None
        game.ended_at = now


# --- Lobby ---------------------------------------------------------------------------------


async def do_create_game(db: AsyncSession, host: User, values: NewGame) -> StationGame:
    """Open a lobby with the host as its first joiner."""
    game = StationGame(
        public_id=new_token(9),
        invite_token=new_token(),
        host_id=host.id,
        title=values.title,
        status="lobby",
        pouch_minute=values.pouch_minute,
        time_zone=values.time_zone,
        day_minutes=values.day_minutes,
        early_pouch=values.early_pouch,
        lobby_size=1,
    )
    db.add(game)
    await db.flush()
    db.add(StationSeat(game_id=game.id, user_id=host.id))
    await db.commit()
    return game


async def do_join(db: AsyncSession, game: StationGame, user: User) -> None:
    """Join a lobby through its invite (joining twice changes nothing)."""
    if await _seated(db, game, user):
        return
    if game.status != "lobby":
        raise Refused("This game has already started; it takes no new joiners.")
    if game.lobby_size >= MAX_PLAYERS:
        raise Refused("The table is full: Station seats at most 10 players (rule S1).", "S1")
    db.add(StationSeat(game_id=game.id, user_id=user.id))
    game.lobby_size += 1
    touch(game, utcnow())
    try:
        await commit(db)
    except Conflict:
        # The rollback expired both rows; read them again before asking who sits there.
        await db.refresh(game)
        await db.refresh(user)
        if await _seated(db, game, user):
            return  # a double click: the first one joined
        raise Refused("The lobby changed at that moment; try joining again.") from None


async def _seated(db: AsyncSession, game: StationGame, user: User) -> bool:
    seat = await db.scalar(
        select(StationSeat.id).where(StationSeat.game_id == game.id, StationSeat.user_id == user.id)
    )
    return seat is not None


async def do_leave(db: AsyncSession, context: GameContext) -> None:
    """Leave a lobby before the start (the host stays: the game is theirs)."""
    game, seat = context.game, context.seat_row
    if game.status != "lobby":
        raise Refused("The game has started; players cannot leave it now.")
    if context.is_host or seat is None:
        raise Refused("The host cannot leave their own game.")
    await _drop_joiner(db, context, seat)


async def do_kick(db: AsyncSession, context: GameContext, seat_id: int) -> None:
    """The host removes a joiner from the lobby."""
    game = context.game
    if game.status != "lobby":
        raise Refused("The game has started: use Remove or Replace instead.")
    seat = await db.scalar(
        select(StationSeat).where(StationSeat.id == seat_id, StationSeat.game_id == game.id)
    )
    if seat is None:
        raise Refused("That joiner is no longer in the lobby.")
    if seat.user_id == game.host_id:
        raise Refused("The host cannot remove themselves from the lobby.")
    await _drop_joiner(db, context, seat)


async def _drop_joiner(db: AsyncSession, context: GameContext, seat: StationSeat) -> None:
    game = context.game
    await db.delete(seat)
    game.lobby_size -= 1
    touch(game, utcnow())
    try:
        await commit(db)
    except Conflict:
        await _reload(db, context)
        raise Refused("The lobby changed at that moment; try again.") from None


async def do_start(db: AsyncSession, context: GameContext, clock: Clock) -> StationState:
    """Deal the game (S1–S5) for the joiners in join order and start Day 1's clock."""
    game = context.game
    if game.status != "lobby":
        raise Refused("This game has already started.")
    seats = list(
        await db.scalars(
            select(StationSeat).where(StationSeat.game_id == game.id).order_by(StationSeat.id)
        )
    )
    # S4: the seed is stored with the game; S2: the engine's seat order is the join order.
    setup = StationSetup(tuple(f"user-{s.user_id}" for s in seats), secrets.randbits(63))
    try:
        state = start(setup)
    except IllegalAction as error:
        raise explain(error) from None
    now = clock.now()
    for index, seat in enumerate(seats):
        seat.seat = index
    game.setup = setup_to_json(setup)
    game.status = "running"
    game.day = 1
    game.started_at = now
    touch(game, now)
    game.deadline = next_deadline(schedule_of(game), now)
    try:
        await commit(db)
    except Conflict:
        await _reload(db, context)
        raise Refused(
            "Someone joined or left at that moment; check the list and start again."
        ) from None
    remember(game.public_id, 0, state)
    return state


# --- Play ----------------------------------------------------------------------------------


def check_playable(game: StationGame, now: datetime, *, paused_ok: bool = False) -> None:
    """The desks are open: the game runs and today's Pouch has not left yet."""
    if game.status == "lobby":
        raise Refused("The game has not started yet.")
    if game.status == "paused" and not paused_ok:
        raise Refused("The host has paused the game; nothing can be saved until it resumes.")
    if game.deadline is not None and game.deadline <= now:
        raise Stale("Today's Pouch has left. Wait a moment for the Morning Cable, then reload.")


async def do_act(
    db: AsyncSession,
    context: GameContext,
    action: Action,
    *,
    clock: Clock,
    expected_version: int | None = None,
    announcement: tuple[str, str] | None = None,
) -> Acted:
    """Apply a player's (or the host's) action through the engine and store it.

    `expected_version` is the `table_epoch` the client's page was built from: if a Pouch or a
    removal happened since, the action is refused as stale instead of landing on a day the
    player did not see. IllegalAction becomes `Refused` with the rule in plain words.
    """
    game = context.game
    lock = writer_lock(game.public_id)
    waited = lock.locked()
    async with lock:
        if waited:
            await _reload(db, context)  # others wrote while this one queued
        for attempt in range(ATTEMPTS):
            if not _still_holds_seat(context):
                raise Refused("The host has handed your seat to someone else.")
            if expected_version is not None and await _stale(db, game, expected_version):
                raise Stale(
                    "The game moved on since this page was loaded. Reload it and try again."
                )
            try:
                return await _act_once(db, context, action, clock.now(), announcement)
            except Conflict:
                # Another process (a runner, a second server) wrote first: read, try again.
                await _reload(db, context)
                await asyncio.sleep(random.uniform(0, 0.01 * (attempt + 1)))
    raise Stale("Many saves arrived at once and this one could not get through; try again.")


async def _stale(db: AsyncSession, game: StationGame, expected: int) -> bool:
    """Whether a page built at `table_epoch` `expected` is older than the game now (a lobby has
    no state: its refusal is that it has not started)."""
    if game.setup is None:
        return False
    return expected != table_epoch(await load_state(db, game))


def _still_holds_seat(context: GameContext) -> bool:
    """Whether the person acting still holds their seat (a replacement may have come first)."""
    seat, user = context.seat_row, context.user
    return seat is None or user is None or seat.user_id == user.id


def writer_lock(public_id: str) -> asyncio.Lock:
    """This process's lock for writing one game: saves queue here instead of colliding in
    the database (whose conditional update still guards against other processes)."""
    key = (id(asyncio.get_running_loop()), public_id)
    lock = _writers.get(key)
    if lock is None:
        lock = asyncio.Lock()
        _writers[key] = lock
    return lock


async def _act_once(
    db: AsyncSession,
    context: GameContext,
    action: Action,
    now: datetime,
    announcement: tuple[str, str] | None,
) -> Acted:
    """One attempt: apply on the stored state and commit; Conflict if another writer won."""
    game = context.game
    check_playable(game, now, paused_ok=isinstance(action, RemovePlayer))  # S40: removal too
    state = await load_state(db, game)
    try:
        new_state, events = apply(state, action)
    except IllegalAction as error:
        raise explain(error) from None
    game.version += 1
    if isinstance(action, RemovePlayer):
        game.table_version = game.version  # pages from before the removal are stale
    follow_engine(game, new_state, now)
    if game.early_pouch and all_done(new_state) and game.deadline is not None:
        game.deadline = min(game.deadline, now)  # S41: the runner sends it at once
    db.add(
        StationAction(
            game_id=game.id,
            seq=game.version,
            day=state.day,
            action=action_to_json(action),
            user_id=context.user.id if context.user is not None else None,
        )
    )
    journaled = list(events)
    if announcement is not None:
        journaled.append(announce(db, game, *announcement))
    seq = await journal_events(db, game.public_id, journaled)  # the engine's audiences, same commit
    await commit(db)
    remember(game.public_id, game.version, new_state)
    await wake_game(game.public_id, seq)
    if game.deadline is not None and game.deadline <= now:
        POUCH_DUE.pouch_due()
    return Acted(new_state, game.version, events)


# --- Host tools (S40) ----------------------------------------------------------------------


async def _host_write(db: AsyncSession, context: GameContext, notice: Event) -> None:
    """Commit a host tool's change with its public notice; a concurrent change refuses it."""
    game = context.game
    seq = await journal_events(db, game.public_id, [notice])
    try:
        await commit(db)
    except Conflict:
        await _reload(db, context)
        raise Stale(
            "The game changed at that moment (perhaps the Pouch left); look again."
        ) from None
    await wake_game(game.public_id, seq)


def _open_day(game: StationGame, now: datetime) -> datetime:
    """Today's deadline, which must still lie ahead, for tools that move it."""
    if game.status == "paused":
        raise Refused("The game is paused: resume it first.")
    if game.status != "running" or game.deadline is None:
        raise Refused("The game is not running.")
    if game.deadline <= now:
        raise Stale("Today's Pouch is already leaving; the tool applies to the next day.")
    return game.deadline


async def do_pause(db: AsyncSession, context: GameContext, clock: Clock) -> None:
    """Stop the clock; it restarts with the time that was left (ends by itself, table_limits.py)."""
    game = context.game
    now = clock.now()
    deadline = _open_day(game, now)
    game.status = "paused"
    game.paused_remaining_seconds = math.ceil((deadline - now).total_seconds())
    game.pause_ends_at = now + table_limits.MAX_PAUSE
    game.deadline = None
    touch(game, now)
    hours = int(table_limits.MAX_PAUSE.total_seconds() // 3600)
    notice = announce(
        db,
        game,
        "paused",
        f"The host paused the game. The clock stands still until they resume it, "
        f"or by itself after {hours} hours.",
    )
    await _host_write(db, context, notice)


def resume(game: StationGame, at: datetime) -> None:
    """Restart a paused game's clock at `at` with the time that was left."""
    remaining = timedelta(seconds=game.paused_remaining_seconds or 0)
    game.status = "running"
    game.deadline = at + remaining
    game.paused_remaining_seconds = None
    game.pause_ends_at = None
    touch(game, at)


async def do_resume(db: AsyncSession, context: GameContext, clock: Clock) -> None:
    """Restart the clock of a paused game."""
    game = context.game
    if game.status != "paused":
        raise Refused("The game is not paused.")
    now = clock.now()
    # A pause that has already run out ended at its limit, not now (the runner does the same).
    at = min(now, game.pause_ends_at) if game.pause_ends_at is not None else now
    resume(game, at)
    notice = announce(db, game, "resumed", "The host resumed the game. The clock is running again.")
    await _host_write(db, context, notice)
    if game.deadline is not None and game.deadline <= now:
        POUCH_DUE.pouch_due()


async def do_extend(db: AsyncSession, context: GameContext, minutes: int, clock: Clock) -> None:
    """Move today's Pouch later, by at most what is left of today's allowance (table_limits.py)."""
    game = context.game
    if minutes <= 0:
        raise Refused("Choose how long to extend the deadline by.")
    deadline = _open_day(game, clock.now())
    used = timedelta(seconds=game.day_extended_seconds)
    granted = table_limits.allowed_extension(used, timedelta(minutes=minutes))
    if not granted:
        limit = int(table_limits.MAX_EXTENSION_PER_DAY.total_seconds() // 3600)
        raise Refused(f"Today's deadline has already been extended by the most allowed, {limit} h.")
    game.deadline = deadline + granted
    game.day_extended_seconds += int(granted.total_seconds())
    touch(game, clock.now())
    capped = " (the most still allowed today)" if granted < timedelta(minutes=minutes) else ""
    notice = announce(
        db,
        game,
        "extended",
        f"The host extended today's deadline by {_duration(granted)}{capped}.",
    )
    await _host_write(db, context, notice)


async def do_replace(
    db: AsyncSession, context: GameContext, seat: int, newcomer: User, clock: Clock
) -> None:
    """Hand a seat to a newcomer, who takes over its codename, role and history (S40)."""
    game = context.game
    if game.status not in ("running", "paused"):
        raise Refused("Only a running game's seats can be handed over.")
    row = await db.scalar(
        select(StationSeat).where(StationSeat.game_id == game.id, StationSeat.seat == seat)
    )
    if row is None:
        raise Refused("There is no such seat.")
    if row.user_id == game.host_id:
        raise Refused("The host cannot hand over their own seat.")
    taken = await db.scalar(
        select(StationSeat.id).where(
            StationSeat.game_id == game.id, StationSeat.user_id == newcomer.id
        )
    )
    if taken is not None:
        raise Refused(f"{newcomer.display_name} already has a seat at this table.")
    state = await load_state(db, game)
    codename = state.seats[seat].codename
    if not state.alive[seat]:
        raise Refused(f"{codename} is burned; there is no desk left to take over.")
    db.add(
        StationSeatHolder(
            game_id=game.id,
            seat=seat,
            user_id=row.user_id,
            from_day=row.first_full_day,
            until_day=game.day,
        )
    )
    row.user_id = newcomer.id
    row.first_full_day = game.day + 1  # inactivity counts only the newcomer's own full days
    touch(game, clock.now())
    notice = announce(
        db,
        game,
        "replaced",
        f"The host handed {codename}'s desk to a new officer, who takes over its role, "
        "its results and its history.",
    )
    await _host_write(db, context, notice)


async def do_remove(db: AsyncSession, context: GameContext, seat: int, clock: Clock) -> Acted:
    """Burn a player at once with cause `removed`; S24 is checked at once (S40)."""
    game = context.game
    state = await load_state(db, game)
    if not 0 <= seat < len(state.seats):
        raise Refused("There is no such seat.")
    codename = state.seats[seat].codename
    text = f"The host removed {codename} from the game: burned, cause removed."
    return await do_act(
        db, context, RemovePlayer(seat), clock=clock, announcement=("removed", text)
    )


async def do_set_spectators(
    db: AsyncSession, context: GameContext, enabled: bool, clock: Clock
) -> None:
    """Turn the public spectator link on (a fresh one) or off."""
    game = context.game
    if enabled == (game.spectator_token is not None):
        return
    game.spectator_token = new_token() if enabled else None
    touch(game, clock.now())
    text = (
        "The host opened a public spectator link: spectators see the Cables, the Floor "
        "and the Roster, nothing private."
        if enabled
        else "The host closed the public spectator link."
    )
    notice = announce(db, game, "spectators_on" if enabled else "spectators_off", text)
    await _host_write(db, context, notice)


def _duration(span: timedelta) -> str:
    """A span in hours and minutes, for announcements."""
    minutes = int(span.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    if hours and minutes:
        return f"{hours} h {minutes} min"
    return f"{hours} h" if hours else f"{minutes} min"
