"""A game's engine state from storage: its start replayed with its action log, cached.

The log is append-only and every entry is numbered by the version it produced, so a state
cached for (game, version) stays true forever; a newer version replays only the entries after
the cached one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.protocol import Engine

StateT = TypeVar("StateT")
SetupT = TypeVar("SetupT")


class CorruptLog(RuntimeError):
    """The stored log does not match the game's version: never expected, logged loudly."""


class StateCache(Generic[StateT]):
    """The newest committed state of each recently played game, by public id (thread-safe)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._states: OrderedDict[str, tuple[int, StateT]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, public_id: str) -> tuple[int, StateT] | None:
        """The cached (version, state) of a game, if any."""
        with self._lock:
            found = self._states.get(public_id)
            if found is not None:
                self._states.move_to_end(public_id)
            return found

    def remember(self, public_id: str, version: int, state: StateT) -> None:
        """Keep a committed state for later requests (only ever call after the commit)."""
        with self._lock:
            known = self._states.get(public_id)
            if known is not None and known[0] > version:
                return  # a newer version is already known
            self._states[public_id] = (version, state)
            self._states.move_to_end(public_id)
            while len(self._states) > self.size:
                self._states.popitem(last=False)


@dataclass(frozen=True)
class ActionLog:
    """Where a game keeps its action log: the model's action, game and sequence columns."""

    action: Any
    game: Any
    seq: Any

    async def after(self, db: AsyncSession, game_id: int, after: int, upto: int) -> list[Any]:
        """The stored JSON of entries after+1 … upto, in order."""
        rows = await db.scalars(
            select(self.action)
            .where(self.game == game_id, self.seq > after, self.seq <= upto)
            .order_by(self.seq)
        )
        return list(rows)

    async def of_games(
        self, db: AsyncSession, upto: Mapping[int, int]
    ) -> dict[int, list[tuple[int, Any]]]:
        """(seq, stored JSON) of every entry up to each game's version, in order, in one
        query (games by row id → version; a game without entries is missing)."""
        rows = await db.execute(
            select(self.game, self.seq, self.action)
            .where(self.game.in_(list(upto)))
            .order_by(self.game, self.seq)
        )
        entries: dict[int, list[tuple[int, Any]]] = {}
        for game_id, seq, data in rows:
            if seq <= upto[game_id]:
                entries.setdefault(game_id, []).append((seq, data))
        return entries


@dataclass(frozen=True)
class Stored:
    """Which game to load: its row id (the log's key), public id (the cache's) and version."""

    game_id: int
    public_id: str
    version: int


async def replay_log(
    db: AsyncSession,
    engine: Engine[SetupT, StateT, Any],
    cache: StateCache[StateT],
    log: ActionLog,
    game: Stored,
    setup: SetupT,
) -> StateT:
    """The state at the game's version: cached, or the cached one (or the start) plus the
    stored actions after it."""
    cached = cache.get(game.public_id)
    if cached is not None and cached[0] == game.version:
        return cached[1]
    start = start_of(engine, cache, game, setup)
    entries = await log.after(db, game.game_id, start[0], game.version)
    return replay_entries(engine, cache, game, start, entries)


def start_of(
    engine: Engine[SetupT, StateT, Any], cache: StateCache[StateT], game: Stored, setup: SetupT
) -> tuple[int, StateT]:
    """Where replaying a game starts: (version, state) of its cached state when older than the
    game, else (0, the start)."""
    cached = cache.get(game.public_id)
    if cached is not None and cached[0] <= game.version:
        return cached
    return 0, engine.start(setup)


def replay_entries(
    engine: Engine[Any, StateT, Any],
    cache: StateCache[StateT],
    game: Stored,
    start: tuple[int, StateT],
    entries: Iterable[Any],
) -> StateT:
    """The state at the game's version: `start` plus the stored entries after it (cached)."""
    after, state = start
    count = 0
    for data in entries:
        state, _ = engine.apply(state, engine.action_from_json(data))
        count += 1
    if after + count != game.version:
        raise CorruptLog(f"game {game.public_id}: {after + count} actions for v{game.version}")
    cache.remember(game.public_id, game.version, state)
    return state
