"""A game's engine state from storage: its start replayed with its action log, cached.

The log is append-only and every entry is numbered by the version it produced, so a state
cached for (game, version) stays true forever; a newer version replays only the entries after
the cached one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Generic, TypeVar

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


async def replay_log(
    engine: Engine[SetupT, StateT, Any],
    cache: StateCache[StateT],
    public_id: str,
    version: int,
    setup: SetupT,
    log_after: Callable[[int], Awaitable[Iterable[Any]]],
) -> StateT:
    """The state at `version`: cached, or the cached one (or the start) plus the stored actions
    after it (`log_after(n)`: the JSON of entries n+1 … version, in order)."""
    cached = cache.get(public_id)
    if cached is not None and cached[0] == version:
        return cached[1]
    if cached is not None and cached[0] < version:
        after, state = cached
    else:
        after, state = 0, engine.start(setup)
    count = 0
    for data in await log_after(after):
        state, _ = engine.apply(state, engine.action_from_json(data))
        count += 1
    if after + count != version:
        raise CorruptLog(f"game {public_id}: {after + count} actions for v{version}")
    cache.remember(public_id, version, state)
    return state
