"""One game's Pouch staged in the caller's transaction (S20): the engine resolves the day, the
game row moves on to the next deadline, and the log entry and the Pouch record join it.

Nothing is visible before the caller commits; the Pouch record is unique per (game, day) and
the game row's `row_version` is checked at the commit, so a day staged twice is stored once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import Action, ResolvePouch, State, all_done
from deaddrop.server.hosting.transaction import GameWrite
from deaddrop.server.station.bot_seats.bot_due import BOT_RUNNER
from deaddrop.server.station.game.models import StationAction, StationGame, StationPouch
from deaddrop.server.station.game.schedule import next_deadline
from deaddrop.server.station.game.store import write_to
from deaddrop.server.station.game.writes import follow_engine, schedule_of


@dataclass(frozen=True)
class StagedPouch:
    """A day resolved in a transaction, not yet committed."""

    write: GameWrite[State, Action]
    """The game's write: its journal, and the state it reaches once committed."""
    day: int
    """The day whose Pouch this is."""


def stage_pouch(
    db: AsyncSession, game: StationGame, state: State, now: datetime, runner: str
) -> StagedPouch:
    """Resolve today's Pouch of `game` (at `state`) and schedule the next day, in `db`'s
    transaction; the caller commits."""
    assert game.deadline is not None
    deadline: datetime = game.deadline
    day = state.day
    early = game.early_pouch and all_done(state)  # S41
    write = write_to(db, game)
    new_state, _ = write.apply(state, ResolvePouch())  # the Cable, results: same commit
    game.version += 1
    game.table_version = game.version  # pages built before the Pouch are stale now
    follow_engine(game, new_state, now)
    if not new_state.over:
        # Anchored on the deadline that passed, not on now: missed days catch up in order.
        game.deadline = next_deadline(schedule_of(game), deadline)
        game.day_extended_seconds = 0
        write.due(BOT_RUNNER)  # a day opens: bots decide now, not at the bot runner's poll
    action = write.action_json(ResolvePouch())
    db.add(StationAction(game_id=game.id, seq=game.version, day=day, action=action, user_id=None))
    db.add(
        StationPouch(
            game_id=game.id,
            day=day,
            seq=game.version,
            deadline=deadline,
            early=early,
            runner=runner,
        )
    )
    write.reached(game.version, new_state)
    return StagedPouch(write, day)
