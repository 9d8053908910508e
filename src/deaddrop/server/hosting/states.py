"""A game's engine state from storage: its start replayed with its action log, cached.

The log is append-only and every entry is numbered by the version it produced, so a state
cached for (game, version) stays true forever; a newer version replays only the entries after
the cached one.
"""

from __future__ import annotations

import bisect
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Generic, TypeVar

from sqlalchemy import Select, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.protocol import Engine
from deaddrop.server.db.driver import send_in

StateT = TypeVar("StateT")
SetupT = TypeVar("SetupT")


class CorruptLog(RuntimeError):
    """The stored log does not match the game's version: never expected, logged loudly."""


RECENT = 8
"""Committed states kept per game, the newest ones: a request that read its game just before
other saves committed (saves waiting on one game's writer lock, a page made meanwhile) finds
its own version here instead of replaying the whole log from the start (with one state kept,
ten votes at once on one game of about 350 actions replayed the whole log at almost every vote:
18 ms of CPU a vote, and more as the log grew). A state is a few hundred bytes to a few
kilobytes, and the versions of one game share most of theirs."""


class StateCache(Generic[StateT]):
    """The newest committed states of each recently played game, by public id (thread-safe):
    up to `RECENT` versions of each of the `size` games played last."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._states: OrderedDict[str, list[tuple[int, StateT]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, public_id: str) -> tuple[int, StateT] | None:
        """The newest cached (version, state) of a game, if any."""
        return self.at_or_before(public_id, sys.maxsize)

    def at_or_before(self, public_id: str, version: int) -> tuple[int, StateT] | None:
        """The newest cached (version, state) of a game not newer than `version`, if any."""
        with self._lock:
            kept = self._states.get(public_id)
            if kept is None:
                return None
            self._states.move_to_end(public_id)
            for found in reversed(kept):
                if found[0] <= version:
                    return found
            return None

    def remember(self, public_id: str, version: int, state: StateT) -> None:
        """Keep a committed state for later requests (only ever call after the commit)."""
        with self._lock:
            kept = self._states.setdefault(public_id, [])
            versions = [known for known, _ in kept]
            if version not in versions:
                kept.insert(bisect.bisect(versions, version), (version, state))
                del kept[:-RECENT]  # the oldest go first
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
        """The stored JSON of entries after+1 … upto, in order: a statement standing alone,
        straight through the driver (db/driver.py). With several server processes a save
        often finds its game moved on by another one since it cached the game's state, and
        reads the entries in between: through the ORM and a pooled transaction that read cost
        a vote on PostgreSQL more than all the rest of its work."""
        values = {"game": game_id, "after": after, "upto": upto}
        return [row[0] for row in (await send_in(db, self._entries, values, alone=True)).rows]

    @cached_property
    def _entries(self) -> Select[Any]:
        """The query of `after`, built once (the driver compiles each statement once)."""
        return (
            select(self.action)
            .where(
                self.game == bindparam("game"),
                self.seq > bindparam("after"),
                self.seq <= bindparam("upto"),
            )
            .order_by(self.seq)
        )

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
    cached = cache.at_or_before(game.public_id, game.version)
    if cached is not None and cached[0] == game.version:
        return cached[1]
    start = start_of(engine, cache, game, setup)
    entries = await log.after(db, game.game_id, start[0], game.version)
    return replay_entries(engine, cache, game, start, entries)


def start_of(
    engine: Engine[SetupT, StateT, Any], cache: StateCache[StateT], game: Stored, setup: SetupT
) -> tuple[int, StateT]:
    """Where replaying a game starts: (version, state) of its newest cached state not newer
    than the game, else (0, the start)."""
    cached = cache.at_or_before(game.public_id, game.version)
    if cached is not None:
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
