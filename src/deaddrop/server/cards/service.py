"""`do_*`: every write to a Cards table, one writer per table, events journaled per audience.

A move is applied by the engine (which refuses illegal ones with the rule id), stored in the
action log, and its events journaled with the engine's audience in the same transaction; the
wake-up is sent only after commit. When bots play instantly (tests), their moves follow in the
same transaction; otherwise the table gets a `due_at` and the runner plays them later.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.bots.cards.registry import BOT_NAMES, make_bot
from deaddrop.engine.cards import Action, State, start, view
from deaddrop.engine.core.events import Audience, Event
from deaddrop.server.cards.access import TableContext, seats_of
from deaddrop.server.cards.identity import Who
from deaddrop.server.cards.models import CardsAction, CardsSeat, CardsTable
from deaddrop.server.cards.runtime import CARDS_RUNNER, Runtime
from deaddrop.server.cards.seat_bots import bot_for
from deaddrop.server.cards.stall import closing_grab
from deaddrop.server.cards.table_state import load_state, setup_of, write_to, writer_lock
from deaddrop.server.db.base import utcnow
from deaddrop.server.hosting.refusals import Refused, Stale
from deaddrop.server.hosting.transaction import Conflict, GameWrite, check_version

INLINE_CAP = 3000
"""Most bot moves played inside one request (instant bots); the runner plays any rest."""
Write = GameWrite[State, Action]

ActionMaker = Callable[[State, int], Action]
"""Builds the engine action from the current state and the acting seat; Refused if it cannot."""


@dataclass(frozen=True)
class TableForm:
    """A new table as asked for: seat 0 is the person opening it."""

    others: tuple[str, ...]
    """Seats 1…: "friend" (an invite) or a bot name."""
    grab_face_down: bool = False
    """C8 option."""
    tokens_to_win: int = 3
    """C11 option."""
    public: bool = False
    """Listed for anyone to join."""
    turn_seconds: int | None = None
    """The turn timer; None waits for people forever."""


def check_form(form: TableForm) -> None:
    """Validate a new table: 2–4 seats (C2), known bots, options in range (C11)."""
    if not 1 <= len(form.others) <= 3:
        raise Refused("A table has 2 to 4 seats (rule C2).", "C2")
    for kind in form.others:
        if kind != "friend" and kind not in BOT_NAMES:
            raise Refused(f"Each other seat is a friend or a bot ({', '.join(BOT_NAMES)}).")
    if not 1 <= form.tokens_to_win <= 9:
        raise Refused("Tokens to win is between 1 and 9 (rule C11).", "C11")
    if form.turn_seconds is not None and not 10 <= form.turn_seconds <= 3600:
        raise Refused("The turn timer is between 10 seconds and an hour, or off.")


async def do_open_table(db: AsyncSession, rt: Runtime, who: Who, form: TableForm) -> CardsTable:
    """Open a table with this person in seat 0; it starts at once when no friend is awaited."""
    check_form(form)
    if not who.known:
        raise Refused("Open a table from the Cards page.")
    now = utcnow()
    table = CardsTable(
        public_id=secrets.token_urlsafe(12),
        invite_token=secrets.token_urlsafe(16),
        public=form.public,
        status="open",
        players=len(form.others) + 1,
        grab_face_down=form.grab_face_down,
        tokens_to_win=form.tokens_to_win,
        turn_seconds=form.turn_seconds,
        seed=secrets.randbelow(2**31),
        version=0,
        created_at=now,
        updated_at=now,
    )
    db.add(table)
    await db.flush()
    seats = [CardsSeat(table_id=table.id, seat=0)]
    who.claim(seats[0])
    for index, kind in enumerate(form.others, start=1):
        bot = None if kind == "friend" else kind
        seats.append(CardsSeat(table_id=table.id, seat=index, bot=bot, name=_bot_name(bot)))
    db.add_all(seats)
    await db.flush()
    write = write_to(db, table)
    if not _free(seats):
        await _start(write, rt, table, seats, now)
    await _commit(write)
    return table


def _bot_name(bot: str | None) -> str:
    return "" if bot is None else f"{bot.capitalize()} bot"


def _free(seats: Sequence[CardsSeat]) -> list[CardsSeat]:
    return [seat for seat in seats if seat.is_free]


@dataclass(frozen=True)
class Joined:
    """The seat a join ended in, and whether this join took it (False: already held)."""

    seat: int
    """The engine seat index."""
    new: bool
    """True when this request took the seat; False when the person already sat there."""


JOINED = "You took a seat."
ALREADY_SEATED = "You already sit at this table."


def joined_message(joined: Joined) -> str:
    """What a join tells the person: a seat taken now, or the one they already hold."""
    return JOINED if joined.new else ALREADY_SEATED


async def do_join(db: AsyncSession, rt: Runtime, context: TableContext, who: Who) -> Joined:
    """Take the first free seat of an open table; the game starts when the last one is taken."""
    table = context.table
    if context.mine is not None:
        return Joined(context.mine.seat, new=False)
    if not who.known:
        raise Refused("Open the Cards page first, or log in, to take a seat.")
    async with writer_lock(table.public_id):
        await db.refresh(table)
        # Fresh rows: a second click may have read the table before the first one sat down.
        seats = await seats_of(db, table, fresh=True)
        held = next((seat for seat in seats if who.holds(seat)), None)
        if held is not None:
            return Joined(held.seat, new=False)
        free = _free(seats)
        if table.status == "over":
            raise Refused("This game is over.", None, 409)
        if table.status != "open" or not free:
            raise Refused("Every seat at this table is taken.", None, 409)
        now = utcnow()
        who.claim(free[0])
        table.updated_at = now
        write = write_to(db, table)
        write.journal([_public("seat_taken", seat=free[0].seat, name=who.name)])
        if len(free) == 1:
            await _start(write, rt, table, seats, now)
        await _commit(write)
    return Joined(free[0].seat, new=True)


async def _start(
    write: Write, rt: Runtime, table: CardsTable, seats: list[CardsSeat], now: datetime
) -> None:
    """Deal round 1 (C2, C3) and journal the deal: the table to all, each hand to its seat."""
    state = start(setup_of(table))
    table.status = "playing"
    write.journal(state.log)
    await _run_and_settle(write, rt, table, seats, state, now)


async def do_act(
    db: AsyncSession,
    rt: Runtime,
    context: TableContext,
    make: ActionMaker,
    expected_version: int | None,
) -> int:
    """Apply this seat's move through the engine; returns the table's new version.

    A page built from an older version is refused as stale, so nobody acts on a table they
    have not seen; an illegal move comes back as the engine's rule in plain words.
    """
    table, mine = context.table, context.mine
    assert mine is not None
    async with writer_lock(table.public_id):
        await db.refresh(table)
        seats = await seats_of(db, table)
        if table.status != "playing":
            raise Refused("This game is not being played right now.", None, 409)
        check_version(expected_version, table.version, _STALE)
        state = await load_state(db, table)
        action = make(state, mine.seat)
        write = write_to(db, table)
        state = await _record(write, table, state, action, auto=False)
        await _run_and_settle(write, rt, table, seats, state, utcnow())
        version = table.version
        await _commit(write)
    return version


_STALE = "The table moved on since your page was loaded; look again and retry."


async def do_take_back(db: AsyncSession, rt: Runtime, context: TableContext) -> None:
    """The person returns: the stand-in bot stops playing their seat."""
    table, mine = context.table, context.mine
    assert mine is not None
    async with writer_lock(table.public_id):
        await db.refresh(table)
        await db.refresh(mine)
        if not mine.away:
            return
        mine.away = False
        seats = await seats_of(db, table)
        write = write_to(db, table)
        write.journal([_public("seat_back", seat=mine.seat)])
        if table.status == "playing":
            state = await load_state(db, table)
            _settle(rt, table, seats, state, utcnow())
        await _commit(write)


async def do_notebook(db: AsyncSession, context: TableContext, on: bool) -> None:
    """Show or hide this person's deduction notebook (their own page only)."""
    assert context.mine is not None
    context.mine.notebook = on
    await db.commit()


async def do_auto_move(db: AsyncSession, rt: Runtime, table_id: int, now: datetime) -> bool:
    """The runner's move: a bot's turn, or a person's whose timer ran out; False if none due."""
    table = await db.get(CardsTable, table_id, populate_existing=True)
    if table is None:
        return False
    async with writer_lock(table.public_id):
        await db.refresh(table)
        if table.status != "playing" or table.due_at is None or table.due_at > now:
            return False
        seats = await seats_of(db, table)
        state = await load_state(db, table)
        pending = state.pending
        assert pending is not None
        row = seats[pending.seat]
        write = write_to(db, table)
        if row.bot is None and not row.away:
            # The turn timer ran out: a bot plays this seat until its person takes it back.
            row.away = True
            write.journal([_public("seat_away", seat=row.seat)])
        move = await _bot_move(table, row, state, seats)
        state = await _record(write, table, state, move, auto=True)
        await _run_and_settle(write, rt, table, seats, state, now)
        await _commit(write, wake_runner=False)  # the runner itself: it looks again anyway
    return True


async def _bot_move(
    table: CardsTable, row: CardsSeat, state: State, seats: Sequence[CardsSeat]
) -> Action:
    """A bot's choice from the seat's view alone (C13), off the event loop."""
    seen = view(state, row.seat)
    in_round = [seat for seat in seats if state.in_round(seat.seat)]
    if all(_automatic(seat) for seat in in_round):
        closing = await asyncio.to_thread(closing_grab, seen)  # stall.py: bots alone must end
        if closing is not None:
            return closing
    bot = make_bot(bot_for(row), table.seed * 7919 + table.version * 31 + row.seat)
    return await asyncio.to_thread(bot.choose, seen)


async def _record(
    write: Write, table: CardsTable, state: State, action: Action, *, auto: bool
) -> State:
    """Apply one action, store it and journal its events with the engine's audience."""
    new_state, _ = write.apply(state, action)
    table.version += 1
    stored = write.action_json(action)
    write.db.add(CardsAction(table_id=table.id, seq=table.version, action=stored, auto=auto))
    return new_state


def _automatic(row: CardsSeat) -> bool:
    return row.bot is not None or row.away


async def _run_and_settle(
    write: Write,
    rt: Runtime,
    table: CardsTable,
    seats: list[CardsSeat],
    state: State,
    now: datetime,
) -> None:
    """Play instant bots, set the status and the next due time, journal the new version."""
    moves = 0
    while rt.instant and state.pending is not None and moves < INLINE_CAP:
        row = seats[state.pending.seat]
        if not _automatic(row):
            break
        move = await _bot_move(table, row, state, seats)
        state = await _record(write, table, state, move, auto=True)
        moves += 1
    _settle(rt, table, seats, state, now)
    pending = None if state.pending is None else state.pending.seat
    # Every seat re-renders at every version, whatever private events it was not told of.
    write.journal([_public("version", version=table.version, pending=pending)])
    write.reached(table.version, state)


def _settle(
    rt: Runtime, table: CardsTable, seats: list[CardsSeat], state: State, now: datetime
) -> None:
    """Status, winner and when the runner should act next."""
    table.updated_at = now
    if state.pending is None:
        table.status, table.winner, table.due_at = "over", state.winner, None
        return
    row = seats[state.pending.seat]
    if _automatic(row):
        table.due_at = now + timedelta(seconds=rt.bot_delay)
    elif table.turn_seconds:
        table.due_at = now + timedelta(seconds=table.turn_seconds)
    else:
        table.due_at = None


def _public(kind: str, **payload: object) -> Event:
    return Event(kind, payload, Audience.everyone())


async def _commit(write: Write, *, wake_runner: bool = True) -> None:
    """Commit, then wake the table's pages (and the runner: a due time may have changed); a
    second writer (another process) that got there first makes this one stale."""
    if wake_runner:
        write.due(CARDS_RUNNER)
    try:
        await write.commit()
    except Conflict:
        raise Stale("Another move landed at that moment; look at the table and retry.") from None
