"""A Station game's engine state from storage: its setup replayed with its action log, cached
(server/hosting/states.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import ENGINE, StationState
from deaddrop.engine.station.codec import setup_from_json
from deaddrop.server.hosting.states import CorruptLog, StateCache, replay_log
from deaddrop.server.station.game.models import StationAction, StationGame

__all__ = ["CACHE_SIZE", "CorruptLog", "load_state", "remember"]

CACHE_SIZE = 512
"""Games kept in memory (a state is a few kilobytes)."""

_STATES: StateCache[StationState] = StateCache(CACHE_SIZE)


async def load_state(db: AsyncSession, game: StationGame) -> StationState:
    """The engine state of a started game at `game.version`."""
    setup = game.setup
    if setup is None:
        raise ValueError("a game in the lobby has no engine state yet")

    async def log_after(after: int) -> Iterable[Any]:
        rows = await db.scalars(
            select(StationAction.action)
            .where(
                StationAction.game_id == game.id,
                StationAction.seq > after,
                StationAction.seq <= game.version,
            )
            .order_by(StationAction.seq)
        )
        return list(rows)

    return await replay_log(
        ENGINE, _STATES, game.public_id, game.version, setup_from_json(setup), log_after
    )


def remember(public_id: str, version: int, state: StationState) -> None:
    """Keep a committed state for later requests (only ever call after the commit)."""
    _STATES.remember(public_id, version, state)
