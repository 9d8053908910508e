"""`do_*` of the host's tools during play (S40): pause, resume, extend, replace, remove, the
spectator link; each announced publicly and bounded by `table_limits`."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.events import Event
from deaddrop.engine.station import (
    RemovePlayer,
)
from deaddrop.server.accounts.models import User
from deaddrop.server.clock import Clock
from deaddrop.server.hosting.refusals import Refused, Stale
from deaddrop.server.hosting.transaction import Conflict
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import (
    StationGame,
    StationSeat,
    StationSeatHolder,
)
from deaddrop.server.station.game.store import load_state, write_to
from deaddrop.server.station.game.writes import (
    announce,
    new_token,
    reload_context,
    touch,
)
from deaddrop.server.station.host import table_limits
from deaddrop.server.station.play.pouch_due import POUCH_RUNNER
from deaddrop.server.station.play.service import Acted, do_act
from deaddrop.server.station.standins.ledger import open_stand_in


async def _host_write(
    db: AsyncSession, context: GameContext, notice: Event, *, pouch_due: bool = False
) -> None:
    """Commit a host tool's change with its public notice; a concurrent change refuses it.
    `pouch_due`: the change made today's Pouch due now (the runner is told after commit)."""
    game = context.game
    write = write_to(db, game)
    write.journal([notice])
    if pouch_due:
        write.due(POUCH_RUNNER)
    try:
        await write.commit()
    except Conflict:
        await reload_context(db, context)
        raise Stale(
            "The game changed at that moment (perhaps the Pouch left); look again."
        ) from None


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
    due = game.deadline is not None and game.deadline <= now
    await _host_write(db, context, notice, pouch_due=due)


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


async def seat_to_hand_over(
    db: AsyncSession, context: GameContext, seat: int
) -> tuple[StationSeat, str]:
    """The row and codename of a seat the host may hand over (S40): a living person's seat of
    a running game, not the host's own."""
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
    if row.user_id is None:  # a bot seat has no holder to remember
        raise Refused("A bot's seat cannot be handed over.")
    state = await load_state(db, game)
    codename = state.seats[seat].codename
    if not state.alive[seat]:
        raise Refused(f"{codename} is burned; there is no desk left to take over.")
    return row, codename


async def retire_holder(
    db: AsyncSession, game: StationGame, row: StationSeat, now: datetime
) -> None:
    """Remember the seat's holder, who loses it (S40), before the caller seats a newcomer; a
    bot standing in for them leaves with them."""
    db.add(
        StationSeatHolder(
            game_id=game.id,
            seat=row.seat,
            user_id=row.user_id,
            from_day=row.first_full_day,
            until_day=game.day,
        )
    )
    row.first_full_day = game.day + 1  # inactivity counts only the newcomer's own full days
    row.bot_level = None
    stand_in = await open_stand_in(db, game.id, row.seat or 0)
    if stand_in is not None:
        stand_in.back_day = game.day
        stand_in.ended_at = now


async def announce_handover(
    db: AsyncSession, context: GameContext, codename: str, newcomer: str, now: datetime
) -> None:
    """Commit a handover with its public notice (S40: the table is told who took the desk)."""
    game = context.game
    touch(game, now)
    notice = announce(
        db,
        game,
        "replaced",
        f"The host handed {codename}'s desk to {newcomer}, who takes over its role, "
        "its results and its history.",
    )
    await _host_write(db, context, notice)


async def do_replace(
    db: AsyncSession, context: GameContext, seat: int, newcomer: User, clock: Clock
) -> None:
    """Hand a seat to a newcomer, who takes over its codename, role and history (S40)."""
    game = context.game
    row, codename = await seat_to_hand_over(db, context, seat)
    taken = await db.scalar(
        select(StationSeat.id).where(
            StationSeat.game_id == game.id, StationSeat.user_id == newcomer.id
        )
    )
    if taken is not None:
        raise Refused(f"{newcomer.display_name} already has a seat at this table.")
    await retire_holder(db, game, row, clock.now())
    row.user_id = newcomer.id
    await announce_handover(db, context, codename, "a new officer", clock.now())


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
