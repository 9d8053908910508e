"""A Station game's engine state from storage: its setup replayed with its action log, cached
(server/hosting/states.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import ENGINE, Action, State, setup_from_json
from deaddrop.server.hosting.states import (
    ActionLog,
    CorruptLog,
    StateCache,
    Stored,
    replay_entries,
    replay_log,
    start_of,
)
from deaddrop.server.hosting.transaction import GameWrite, Hosted
from deaddrop.server.station.game.models import StationAction, StationGame
from deaddrop.server.station.game.refusals import explain

__all__ = [
    "CACHE_SIZE",
    "STATION",
    "CorruptLog",
    "kept_state",
    "known_later",
    "load_state",
    "load_states",
    "names_state",
    "remember",
    "write_to",
]

CACHE_SIZE = 512
"""Games kept in memory (a state is a few kilobytes)."""

_STATES: StateCache[State] = StateCache(CACHE_SIZE)
_LOG = ActionLog(StationAction.action, StationAction.game_id, StationAction.seq)
STATION: Hosted[State, Action] = Hosted(ENGINE, _STATES, explain)
"""Station as the hosting layer sees it (server/hosting/transaction.py)."""


def write_to(db: AsyncSession, game: StationGame) -> GameWrite[State, Action]:
    """A write to `game` in `db`'s transaction (journaled, committed, woken as one)."""
    return GameWrite(db, STATION, game.public_id, game)


async def load_state(db: AsyncSession, game: StationGame) -> State:
    """The engine state of a started game at `game.version`."""
    setup = game.setup
    if setup is None:
        raise ValueError("a game in the lobby has no engine state yet")
    cached = _STATES.at_or_before(game.public_id, game.version)
    if cached is not None and cached[0] == game.version:
        return cached[1]  # the usual page: no setup to decode, no log to read
    stored = Stored(game.id, game.public_id, game.version)
    return await replay_log(db, ENGINE, _STATES, _LOG, stored, setup_from_json(setup))


@dataclass(frozen=True)
class LogTail:
    """A game's log entries after version `after`, in order, read beforehand (with the
    session's read: game/plain_member.py)."""

    after: int
    entries: list[Any]


async def kept_state(
    db: AsyncSession, game_id: int, public_id: str, version: int, tail: LogTail | None = None
) -> State | None:
    """The engine state of a started game at `version` from what this process keeps: the state
    at that version, or the newest before it with the log's entries since replayed (another
    process's writes; `tail`'s when they start there and reach `version`, else read now); None
    when it keeps none of the game (`load_state` starts from the setup)."""
    start = _STATES.at_or_before(public_id, version)
    if start is None or start[0] == version:
        return None if start is None else start[1]
    if tail is not None and tail.after == start[0] and start[0] + len(tail.entries) == version:
        entries = tail.entries
    else:
        entries = await _LOG.after(db, game_id, start[0], version)
    return replay_entries(ENGINE, _STATES, Stored(game_id, public_id, version), start, entries)


async def load_states(db: AsyncSession, games: Sequence[StationGame]) -> dict[int, State]:
    """The engine states of started games at their versions (by row id), their logs read in
    one query rather than one each."""
    entries = await _LOG.of_games(db, {game.id: game.version for game in games})
    states = {}
    for game in games:
        if game.setup is None:
            raise ValueError("a game in the lobby has no engine state yet")
        stored = Stored(game.id, game.public_id, game.version)
        start = start_of(ENGINE, _STATES, stored, setup_from_json(game.setup))
        after = [data for seq, data in entries.get(game.id, []) if seq > start[0]]
        states[game.id] = replay_entries(ENGINE, _STATES, stored, start, after)
    return states


async def names_state(db: AsyncSession, game: StationGame) -> State:
    """A state of the started `game` to read its seats' codenames by, which are fixed at setup
    (S3): the newest this process keeps, at whatever version, else the one at `game.version`.
    A save names its targets before it queues for the game's writer lock; the version it read
    with the session may be many saves behind by then, past the states kept, and its replay
    from the start would cost more than the save."""
    cached = _STATES.get(game.public_id)
    return cached[1] if cached is not None else await load_state(db, game)


def known_later(game: StationGame) -> bool:
    """Whether this process has reached a later version of `game` than the one it was read at
    (a writer of this process committed one since, or a page read one): the game must be read
    again. A version only another process reached is not known here: its write is found out at
    commit (the row's version check), as it always was."""
    cached = _STATES.get(game.public_id)
    return cached is not None and cached[0] > game.version


def remember(public_id: str, version: int, state: State) -> None:
    """Keep a committed state for later requests (only ever call after the commit)."""
    _STATES.remember(public_id, version, state)
