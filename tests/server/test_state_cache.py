"""The engine states kept in memory (server/hosting/states.py): the recent versions of each
game, so that a request that read its game a few saves ago finds its own version (or replays
from the nearest one before it) instead of replaying the whole log from the start."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from deaddrop.server.hosting.states import RECENT, StateCache, Stored, replay_log


def test_the_recent_versions_of_a_game_are_kept() -> None:
    cache: StateCache[str] = StateCache(size=4)
    for version in range(1, 11):
        cache.remember("g", version, f"state {version}")
    assert cache.get("g") == (10, "state 10")
    assert cache.at_or_before("g", 5) == (5, "state 5")
    assert cache.at_or_before("g", 99) == (10, "state 10")
    oldest = 10 - RECENT + 1
    assert cache.at_or_before("g", oldest) == (oldest, f"state {oldest}")
    assert cache.at_or_before("g", oldest - 1) is None  # the oldest went first
    assert cache.get("other") is None and cache.at_or_before("other", 3) is None


def test_an_older_version_remembered_later_takes_its_place() -> None:
    cache: StateCache[str] = StateCache(size=4)
    cache.remember("g", 7, "seven")
    cache.remember("g", 5, "five")  # a request that replayed an older version
    cache.remember("g", 7, "seven again")  # a version already kept is kept as it was
    assert cache.get("g") == (7, "seven")
    assert cache.at_or_before("g", 6) == (5, "five")


def test_the_games_played_last_are_kept() -> None:
    cache: StateCache[str] = StateCache(size=2)
    for game in ("a", "b", "c"):
        cache.remember(game, 1, game)
    assert cache.get("a") is None
    assert cache.get("b") == (1, "b") and cache.get("c") == (1, "c")


class _CountingEngine:
    """An engine whose state is the number of actions applied, counting its applies."""

    def __init__(self) -> None:
        self.applied = 0

    def start(self, _setup: Any) -> int:
        return 0

    def action_from_json(self, data: Any) -> Any:
        return data

    def apply(self, state: int, _action: Any) -> tuple[int, list[Any]]:
        self.applied += 1
        return state + 1, []


class _Log:
    """An action log with an entry at every version, read as `ActionLog.after` reads it."""

    async def after(self, _db: Any, _game_id: int, after: int, upto: int) -> list[Any]:
        return [{"seq": seq} for seq in range(after + 1, upto + 1)]


def _replayed(cache: StateCache[int], version: int) -> tuple[int, int]:
    """(the state at `version`, the actions applied to reach it)."""
    engine = _CountingEngine()
    game = Stored(1, "g", version)
    state = asyncio.run(
        replay_log(cast(Any, None), cast(Any, engine), cache, cast(Any, _Log()), game, None)
    )
    return state, engine.applied


def test_a_request_a_few_saves_behind_replays_from_the_nearest_kept_state() -> None:
    cache: StateCache[int] = StateCache(size=4)
    assert _replayed(cache, 300) == (300, 300)  # nothing kept: the whole log
    for version in range(301, 306):
        cache.remember("g", version, version)  # other saves committed meanwhile
    assert _replayed(cache, 303) == (303, 0)  # its own version, kept
    cache2: StateCache[int] = StateCache(size=4)
    cache2.remember("g", 300, 300)
    cache2.remember("g", 310, 310)
    assert _replayed(cache2, 305) == (305, 5)  # from 300, not from the start
    assert cache2.at_or_before("g", 305) == (305, 305)  # and kept for the next one
