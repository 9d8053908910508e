"""A game's engine state from storage: its setup replayed with its action log, cached.

The log is append-only and every entry is numbered by the version it produced, so a state
cached for (game, version) stays true forever; a newer version replays only the entries
after the cached one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import StationState, apply, start
from deaddrop.engine.station.codec import action_from_json, setup_from_json
from deaddrop.server.station.game.models import StationAction, StationGame

CACHE_SIZE = 512
"""Games kept in memory (a state is a few kilobytes)."""

_cache: OrderedDict[str, tuple[int, StationState]] = OrderedDict()
_lock = threading.Lock()


class CorruptLog(RuntimeError):
    """The stored log does not match the game's version: never expected, logged loudly."""


async def load_state(db: AsyncSession, game: StationGame) -> StationState:
    """The engine state of a started game at `game.version`."""
    if game.setup is None:
        raise ValueError("a game in the lobby has no engine state yet")
    cached = _cached(game.public_id)
    if cached is not None and cached[0] == game.version:
        return cached[1]
    if cached is not None and cached[0] < game.version:
        after, state = cached
    else:
        after, state = 0, start(setup_from_json(game.setup))
    rows = await db.scalars(
        select(StationAction.action)
        .where(
            StationAction.game_id == game.id,
            StationAction.seq > after,
            StationAction.seq <= game.version,
        )
        .order_by(StationAction.seq)
    )
    count = 0
    for data in rows:
        state, _ = apply(state, action_from_json(data))
        count += 1
    if after + count != game.version:
        raise CorruptLog(f"game {game.public_id}: {after + count} actions for v{game.version}")
    remember(game.public_id, game.version, state)
    return state


def remember(public_id: str, version: int, state: StationState) -> None:
    """Keep a committed state for later requests (only ever call after the commit)."""
    with _lock:
        known = _cache.get(public_id)
        if known is not None and known[0] > version:
            return  # a newer version is already known
        _cache[public_id] = (version, state)
        _cache.move_to_end(public_id)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def _cached(public_id: str) -> tuple[int, StationState] | None:
    with _lock:
        found = _cache.get(public_id)
        if found is not None:
            _cache.move_to_end(public_id)
        return found
