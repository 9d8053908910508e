"""A player's save posted as JSON, done on the values the session's read gives, with no ORM
object made, when nothing about it is out of the ordinary; else left to the full path.

The full path of a quick post (server/quick_posts.py) loads the session with the person, the
game and the seat into the ORM, gives the handler the person, and saves through `do_act`. Of a
vote's CPU, the session's read with its objects and the person took about a sixth and the
save's machinery around its writes about a third, where the layers every request crosses and a
plain durable write took the rest (issue 15, stop 48: docs/speed-history.md).

Here one statement reads what the full path's checks read of the session's row, the account
and the game with the seat, as the driver's values (game/plain_member.py); the same checks are
made on them (a live session at the account's epoch that would be written back unchanged; a
started game with a seat of the person's own, no bot standing in for them; the game playable
now); the engine applies the same action to the state this process keeps at the version read
(brought to it from the log if it keeps an older one), under the game's writer lock; and the
same rows are written together as `do_act` writes them (the game row conditional on its
version, the log entry, the journal), then cached and woken alike. Whatever is not the usual
case — a session this process has not seen yet or one to renew, a game it keeps no state of,
a refusal of any kind, a lost race — gives up before anything is written, and the request goes
the full way, which answers it as it always did. Nothing is decided here that the full path
does not decide the same way: a refusal's answer is the full path's own.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from litestar import MediaType, Response
from litestar.exceptions import HTTPException
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from deaddrop.engine.station import Action, State
from deaddrop.server.clock import Clock
from deaddrop.server.db.request_session import opened_request_session
from deaddrop.server.db.versioned import versioned_values
from deaddrop.server.hosting import together
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.hosting.transaction import GameWrite
from deaddrop.server.sessions import SessionBackend
from deaddrop.server.station.game.http import AnyRequest, fields_of, version_of
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.station.game.plain_member import Reading, read_member
from deaddrop.server.station.game.store import STATION
from deaddrop.server.station.game.writes import table_epoch
from deaddrop.server.station.play.pouch_due import POUCH_RUNNER
from deaddrop.server.station.play.service import (
    ACTIONS,
    action_row,
    check_playable,
    play_changes,
)


async def plain_save(
    request: AnyRequest,
    backend: SessionBackend,
    clock: Clock,
    read: Callable[[State, int, dict[str, str]], Action],
    message: str,
) -> Response[Any] | None:
    """The save of `read` (the posted fields → the engine's action) done plainly, answered as
    the full path answers it (`message` and the game's table epoch); None: the full path's."""
    reading = await read_member(request, backend)
    if reading is None:
        return None
    try:
        fields = await fields_of(request)
        action = read(reading.state, reading.seat, fields)
        expected = version_of(fields)
    except (Refused, HTTPException):
        return None  # answered by the full path, in its own words
    async with STATION.writer_lock(reading.game.public_id):
        state = reading.current()
        if state is None:
            return None  # another writer of this process went first: the full path reads again
        acted = await _act(request, reading, state, action, expected, clock.now())
    if acted is None:
        return None
    # The table epoch counts Pouches and removals, which every player sees (`table_epoch`).
    body = {"ok": True, "message": message, "version": table_epoch(acted)}
    return Response(body, status_code=200, media_type=MediaType.JSON)


async def _act(
    request: AnyRequest,
    reading: Reading,
    state: State,
    action: Action,
    expected: int | None,
    now: datetime,
) -> State | None:
    """`do_act`'s one attempt on the values read, under the writer lock; the state reached,
    or None (nothing written) for the full path."""
    game = reading.game
    if expected is not None and expected != table_epoch(state):
        return None  # stale: the full path refuses it
    db = opened_request_session(request.scope)
    if db is None or not together.writes_alone(db):
        return None
    write = GameWrite(db, STATION, game.public_id)
    try:
        check_playable(game, now)
        new_state, _events = write.apply(state, action)
    except Refused:
        return None
    changes = play_changes(game, new_state, now)
    version = changes["version"]
    entry = action_row(game.id, version, state.day, write, action, reading.user_id)
    values = versioned_values(StationGame, game.id, game.row_version, changes)
    events = write.take_events()
    try:
        seq = await together.write_row(
            db, StationGame, values, [(ACTIONS, entry)], write.stream, events
        )
    except (StaleDataError, IntegrityError):
        return None  # another process wrote first: the full path reads again and retries
    if seq is None:
        return None
    write.reached(version, new_state)
    deadline = changes.get("deadline", game.deadline)
    if deadline is not None and deadline <= now:
        write.due(POUCH_RUNNER)
    await write.settle(seq, events)
    return new_state
