"""A Station game's engine state from storage: its setup replayed with its action log, cached
(server/hosting/states.py)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import ENGINE, StationState
from deaddrop.engine.station.codec import setup_from_json
from deaddrop.server.hosting.states import ActionLog, CorruptLog, StateCache, Stored, replay_log
from deaddrop.server.station.game.models import StationAction, StationGame

__all__ = ["CACHE_SIZE", "CorruptLog", "load_state", "remember"]

CACHE_SIZE = 512
"""Games kept in memory (a state is a few kilobytes)."""

_STATES: StateCache[StationState] = StateCache(CACHE_SIZE)
_LOG = ActionLog(StationAction.action, StationAction.game_id, StationAction.seq)


async def load_state(db: AsyncSession, game: StationGame) -> StationState:
    """The engine state of a started game at `game.version`."""
    setup = game.setup
    if setup is None:
        raise ValueError("a game in the lobby has no engine state yet")

    stored = Stored(game.id, game.public_id, game.version)
    return await replay_log(db, ENGINE, _STATES, _LOG, stored, setup_from_json(setup))


def remember(public_id: str, version: int, state: StationState) -> None:
    """Keep a committed state for later requests (only ever call after the commit)."""
    _STATES.remember(public_id, version, state)
