"""The auto-pilot option of a game (off by default): the host sets how many hours before the
Pouch a seat with nothing saved gets a stand-in, and the stand-in's bot level."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.clock import Clock
from deaddrop.server.hosting.refusals import Refused, Stale
from deaddrop.server.hosting.transaction import Conflict
from deaddrop.server.numbers import BadNumber, whole_number
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.station.game.store import write_to
from deaddrop.server.station.game.writes import announce, reload_context, touch
from deaddrop.server.station.standins.handover import check_level
from deaddrop.server.station.standins.models import StationStandInOption

MAX_HOURS = 23
"""A stand-in starts within the day: at most 23 hours before the Pouch."""
DEFAULT_HOURS = 3
DEFAULT_LEVEL = "heuristic"
OPTION = "stand_in_option"
"""The announcement kind of the host changing the option during play."""


@dataclass(frozen=True)
class AutoPilot:
    """A checked auto-pilot setting; `hours` None: off."""

    hours: int | None
    """Hours before the Pouch; None when the option is off."""
    level: str
    """The stand-in's bot level."""


def check_auto_pilot(enabled: bool, hours: str, level: str, day_minutes: int) -> AutoPilot:
    """The posted option, or a refusal naming what to fix."""
    if not enabled:
        return AutoPilot(None, DEFAULT_LEVEL)
    try:
        chosen = whole_number(hours, "hours", low=1, high=MAX_HOURS)
    except BadNumber:
        raise Refused(f"Choose the stand-in's hours before the Pouch: 1 to {MAX_HOURS}.") from None
    if chosen * 60 >= day_minutes:
        raise Refused(
            "The stand-in must start within the day: choose fewer hours than a day lasts "
            f"({day_minutes} minutes)."
        )
    return AutoPilot(chosen, check_level(level))


def _option_text(chosen: AutoPilot) -> str:
    """The table's notice of the host's new setting."""
    if chosen.hours is None:
        return "The host turned the stand-ins off."
    return (
        f"The host turned the stand-ins on: a bot ({chosen.level}) plays for anyone who has "
        f"not voted, whispered, posted or marked done {chosen.hours} h before the Pouch."
    )


async def auto_pilot_of(db: AsyncSession, game: StationGame) -> AutoPilot:
    """The game's setting (off when never set)."""
    row = await db.get(StationStandInOption, game.id)
    return AutoPilot(None, DEFAULT_LEVEL) if row is None else AutoPilot(row.hours, row.level)


async def do_set_auto_pilot(
    db: AsyncSession, context: GameContext, chosen: AutoPilot, clock: Clock
) -> None:
    """Store the host's setting for the game (before or during play, never after it)."""
    game = context.game
    if not context.is_host:
        raise Refused("Only the host may set the stand-ins (rule S40).", "S40", 403)
    if game.status == "over":
        raise Refused("The game is over.")
    row = await db.get(StationStandInOption, game.id)
    if chosen.hours is None:
        if row is not None:
            await db.delete(row)
    elif row is None:
        db.add(StationStandInOption(game_id=game.id, hours=chosen.hours, level=chosen.level))
    else:
        row.hours, row.level = chosen.hours, chosen.level
    touch(game, clock.now())
    write = write_to(db, game)
    if game.setup is not None:  # in play the table is told (issue 4: no tool is silent)
        write.journal([announce(db, game, OPTION, _option_text(chosen))])
    try:
        await write.commit()
    except Conflict:
        await reload_context(db, context)
        raise Stale("The game changed at that moment; look again and save it again.") from None
