"""Ending a stand-in: the person takes their seat back, by the button on their page or by a
save of their own (which then wins over the bot's, S7: the last save counts)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.events import Event
from deaddrop.engine.station import State
from deaddrop.server.clock import Clock
from deaddrop.server.hosting.refusals import Refused, Stale
from deaddrop.server.hosting.transaction import Conflict
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.game.store import load_state, write_to
from deaddrop.server.station.game.writes import announce, reload_context, touch
from deaddrop.server.station.standins.ledger import BACK, open_stand_in


def stood_in_for_me(context: GameContext) -> bool:
    """Whether a bot is standing in for the person of this context at their own seat."""
    row, user = context.seat_row, context.user
    return (
        row is not None
        and user is not None
        and row.user_id == user.id
        and row.bot_level is not None
    )


async def end_stand_in(
    db: AsyncSession, game: StationGame, row: StationSeat, codename: str, now: datetime
) -> Event:
    """Give the seat back to its person in the caller's transaction; the public notice."""
    stand_in = await open_stand_in(db, game.id, row.seat or 0)
    if stand_in is not None:
        stand_in.back_day = game.day
        stand_in.ended_at = now
    row.bot_level = None
    touch(game, now)  # the bot's own writes race on the game row: one of the two loses
    text = f"{codename}'s officer is back at the desk; the stand-in bot has left."
    return announce(db, game, BACK, text)


async def back_on_save(
    db: AsyncSession, context: GameContext, state: State, now: datetime
) -> list[Event]:
    """A person's own save ends their stand-in (in the save's transaction); its notice."""
    row = context.seat_row
    if row is None or row.seat is None or not stood_in_for_me(context):
        return []
    return [await end_stand_in(db, context.game, row, state.seats[row.seat].codename, now)]


async def do_take_back(db: AsyncSession, context: GameContext, clock: Clock) -> None:
    """The person's button: the stand-in leaves and the seat is theirs again at once."""
    game, row = context.game, context.seat_row
    if row is None or row.seat is None or not stood_in_for_me(context):
        raise Refused("No bot is standing in for you: the seat is yours.")
    if game.status not in ("running", "paused"):
        raise Refused("The game is not running.")
    state = await load_state(db, game)
    write = write_to(db, game)
    write.journal([await end_stand_in(db, game, row, state.seats[row.seat].codename, clock.now())])
    try:
        await write.commit()
    except Conflict:
        await reload_context(db, context)
        raise Stale("The game changed at that moment; look again and press it again.") from None
