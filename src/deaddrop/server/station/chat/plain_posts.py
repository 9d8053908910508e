"""A chat message or claim posted as JSON, done on the values the session's read gives, with
no ORM object made, when nothing about it is out of the ordinary; else left to the full path.

As a save's plain way (station/play/plain_saves.py): the session, the account and the game
with the seat read as values (game/plain_member.py); the message checked, stored with its
journal row and woken by `post_as`, the full path's own steps, on the state this process
cached at the version read, under the game's writer lock. A refusal, a state to replay, a lost
race or a write that cannot go together with its journal row gives up before anything is
stored, and the full path answers the request as it always did.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar import MediaType, Response
from litestar.exceptions import HTTPException

from deaddrop.server.clock import Clock
from deaddrop.server.db.request_session import opened_request_session
from deaddrop.server.hosting import together
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.hosting.transaction import Conflict
from deaddrop.server.live import journal
from deaddrop.server.sessions import SessionBackend
from deaddrop.server.station.chat.channels import Poster, channel_of, post_as
from deaddrop.server.station.game.http import AnyRequest, fields_of
from deaddrop.server.station.game.plain_member import read_member
from deaddrop.server.station.game.store import STATION


async def plain_post(
    request: AnyRequest,
    backend: SessionBackend,
    clock: Clock,
    text_of: Callable[[dict[str, str], str], str],
    message: str,
) -> Response[Any] | None:
    """The post of `text_of(fields, channel)` done plainly, answered as the full path answers
    it (`message` and the poster's cursor); None: the full path's."""
    reading = await read_member(request, backend)
    if reading is None:
        return None
    game = reading.game
    try:
        name = str((request.scope.get("path_params") or {}).get("channel", ""))
        channel = channel_of(name)
        text = text_of(await fields_of(request), name).replace("\r\n", "\n")
    except (Refused, HTTPException):
        return None  # answered by the full path, in its own words
    db = opened_request_session(request.scope)
    if db is None or not together.writes_alone(db):
        return None
    # S26: once the game is over every player reads everything (`listener_of`).
    listener = journal.EVERYONE if game.status == "over" else reading.seat
    poster = Poster(game.id, game.public_id, reading.seat, listener)
    async with STATION.writer_lock(game.public_id):
        state = reading.current()
        if state is None:
            return None  # another writer of this process went first: the full path reads again
        try:
            sent = await post_as(db, poster, state, channel, text, clock.now(), together_only=True)
        except (Refused, Conflict):
            return None  # the rate limit, the engine's refusal or a lost race: the full path
    if sent is None:
        return None
    # The poster's own cursor: a count of the journal rows they may see (S26–S31), no other.
    body = {"ok": True, "message": message, "seq": sent.cursor}
    return Response(body, status_code=200, media_type=MediaType.JSON)
