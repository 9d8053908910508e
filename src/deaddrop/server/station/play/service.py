"""`do_act`: a player's (or the host's) action through the engine, stored in one transaction,
its events journaled with the engine's audiences, wake-ups after commit; retried on a lost race."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.events import Event
from deaddrop.engine.station import (
    Action,
    RemovePlayer,
    State,
    all_done,
)
from deaddrop.server.clock import Clock
from deaddrop.server.db.base import utcnow
from deaddrop.server.hosting.refusals import Refused, Stale
from deaddrop.server.hosting.transaction import Conflict, GameWrite, check_version
from deaddrop.server.station.game.access import GameContext, read_again
from deaddrop.server.station.game.models import (
    StationAction,
    StationGame,
)
from deaddrop.server.station.game.store import STATION, known_later, load_state, write_to
from deaddrop.server.station.game.writes import (
    announce,
    engine_changes,
    reload_context,
    set_on_row,
    table_epoch,
)
from deaddrop.server.station.play.pouch_due import POUCH_RUNNER
from deaddrop.server.station.standins.back import back_on_save
from deaddrop.server.station.standins.quiet import check_own_saves_stand

ACTIONS = StationAction.metadata.tables[StationAction.__tablename__]
"""The action log's table (a Core insert: no ORM object to track)."""
ATTEMPTS = 5
"""How often a play action is retried when another process wrote to the game first."""


@dataclass(frozen=True)
class Acted:
    """What a stored action did."""

    state: State
    """The game after it."""
    version: int
    """The game's version after it."""
    events: tuple[Event, ...]
    """What it told whom (journaled with it)."""


class PlayedGame(Protocol):
    """What a play action reads of its game's row (the row itself, or its values)."""

    @property
    def status(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def deadline(self) -> datetime | None: ...
    @property
    def early_pouch(self) -> bool: ...


def check_playable(game: PlayedGame, now: datetime, *, paused_ok: bool = False) -> None:
    """The desks are open: the game runs and today's Pouch has not left yet."""
    if game.status == "lobby":
        raise Refused("The game has not started yet.")
    if game.status == "paused" and not paused_ok:
        raise Refused("The host has paused the game; nothing can be saved until it resumes.")
    if game.deadline is not None and game.deadline <= now:
        raise Stale("Today's Pouch has left. Wait a moment for the Morning Cable, then reload.")


def play_changes(
    game: PlayedGame, new_state: State, now: datetime, *, removal: bool = False
) -> dict[str, Any]:
    """The game row's new values once a play action took it to `new_state`: the next version,
    the engine's day and end (`engine_changes`), and the deadline an early Pouch brings on."""
    version = game.version + 1
    changes = {"version": version, **engine_changes(new_state, now)}
    if removal:
        changes["table_version"] = version  # pages from before the removal are stale
    deadline = changes.get("deadline", game.deadline)
    if game.early_pouch and all_done(new_state) and deadline is not None:
        changes["deadline"] = min(deadline, now)  # S41: the runner sends it at once
    return changes


def action_row(
    game_id: int,
    version: int,
    day: int,
    write: GameWrite[State, Action],
    action: Action,
    user_id: int | None,
) -> dict[str, Any]:
    """The log entry of `action`, taken on `day` to the game's `version` by `user_id`."""
    return {
        "game_id": game_id,
        "seq": version,
        "day": day,
        "action": write.action_json(action),
        "user_id": user_id,
        "created_at": utcnow(),
    }


async def do_act(
    db: AsyncSession,
    context: GameContext,
    action: Action,
    *,
    clock: Clock,
    expected_version: int | None = None,
    announcement: tuple[str, str] | None = None,
) -> Acted:
    """Apply a player's (or the host's) action through the engine and store it.

    `expected_version` is the `table_epoch` the client's page was built from: if a Pouch or a
    removal happened since, the action is refused as stale instead of landing on a day the
    player did not see. IllegalAction becomes `Refused` with the rule in plain words.
    """
    game = context.game
    lock = STATION.writer_lock(game.public_id)
    async with lock:
        # Every writer of this process before this one cached the version it reached before
        # letting go: a game read at an older one is read again now, rather than failing the
        # version check at commit. (`lock.locked()` before acquiring would not tell: a lock
        # just let go still hands itself to the writers already queued on it.)
        if known_later(game) and not await read_again(db, context):
            await reload_context(db, context)
        for attempt in range(ATTEMPTS):
            if not _still_holds_seat(context):
                raise Refused("The host has handed your seat to someone else.")
            if expected_version is not None:
                check_version(expected_version, await _epoch(db, game, expected_version), _STALE)
            try:
                return await _act_once(db, context, action, clock.now(), announcement)
            except Conflict:
                # Another process (a runner, a second server) wrote first: read, try again.
                await reload_context(db, context)
                await asyncio.sleep(random.uniform(0, 0.01 * (attempt + 1)))
    raise Stale("Many saves arrived at once and this one could not get through; try again.")


_STALE = "The game moved on since this page was loaded. Reload it and try again."


async def _epoch(db: AsyncSession, game: StationGame, expected: int) -> int:
    """The game's `table_epoch` now (a lobby has no state: `expected`, for its refusal is that
    it has not started)."""
    if game.setup is None:
        return expected
    return table_epoch(await load_state(db, game))


def _still_holds_seat(context: GameContext) -> bool:
    """Whether the person acting still holds their seat (a replacement may have come first),
    or the bot acting still plays it (its person may have taken a stand-in's seat back)."""
    seat, user = context.seat_row, context.user
    if seat is None:
        return True
    return seat.user_id == user.id if user is not None else seat.bot_level is not None


async def _act_once(
    db: AsyncSession,
    context: GameContext,
    action: Action,
    now: datetime,
    announcement: tuple[str, str] | None,
) -> Acted:
    """One attempt: apply on the stored state and commit; Conflict if another writer won."""
    game = context.game
    check_playable(game, now, paused_ok=isinstance(action, RemovePlayer))  # S40: removal too
    state = await load_state(db, game)
    await check_own_saves_stand(db, context, state.day, action)  # a stand-in's limit
    write = write_to(db, game)
    new_state, events = write.apply(state, action)  # the engine's audiences, same commit
    write.journal(await back_on_save(db, context, state, now))  # their own save wins (S7)
    set_on_row(game, play_changes(game, new_state, now, removal=isinstance(action, RemovePlayer)))
    user_id = context.user.id if context.user is not None else None
    write.insert(ACTIONS, action_row(game.id, game.version, state.day, write, action, user_id))
    if announcement is not None:
        write.journal([announce(db, game, *announcement)])
    write.reached(game.version, new_state)
    if game.deadline is not None and game.deadline <= now:
        write.due(POUCH_RUNNER)
    await write.commit()
    return Acted(new_state, game.version, events)
