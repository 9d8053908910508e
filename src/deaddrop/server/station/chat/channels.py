"""Chat of a Station game: posting under the engine's rules, reading, paging back.

Who may read or post is the engine's answer (`can_read`, `check_post`: S14, S26, S28–S30);
this module stores messages, journals one `message` event per post whose audience is exactly
the seats that may read it then, and filters every read with `can_read` on the current state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, Protocol, cast

from markupsafe import Markup, escape
from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.station.channels import Channel, can_read, check_post
from deaddrop.engine.station.state import State
from deaddrop.server.db.driver import send_in
from deaddrop.server.hosting.refusals import Refused, Stale
from deaddrop.server.hosting.shared_write import keyed
from deaddrop.server.hosting.transaction import Conflict, GameWrite
from deaddrop.server.live import journal
from deaddrop.server.live.known_positions import known_positions
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.chat.rate import (
    INSERT_WITHIN_RATE,
    chat_rate_of,
    insert_within_rate,
    rate_limited,
    within_rate_values,
)
from deaddrop.server.station.chat.rate import RATE_COUNT as RATE_COUNT  # where it was
from deaddrop.server.station.chat.rate import RATE_WINDOW as RATE_WINDOW
from deaddrop.server.station.chat.rate import RateLimited as RateLimited
from deaddrop.server.station.game.access import GameContext, read_again
from deaddrop.server.station.game.refusals import explain
from deaddrop.server.station.game.store import STATION, known_later, load_state
from deaddrop.server.station.game.writes import reload_context
from deaddrop.server.station.live.stream import MESSAGE_EVENT, listener_of, stream_of
from deaddrop.server.station.tabs.positions import position

PAGE = 50
"""Messages shown per channel; older ones page back."""
ATTEMPTS = 5
"""Tries when another process journaled the same sequence number first."""

TITLES = {
    Channel.FLOOR: "The Floor",
    Channel.RING: "Ring Channel",
    Channel.ARCHIVE: "The Archive",
    Channel.INTERROGATION: "Interrogation",
}


def channel_of(name: str) -> Channel:
    """The channel a URL names; Refused for an unknown one."""
    try:
        return Channel(name)
    except ValueError:
        raise Refused("There is no such channel.") from None


def readers(state: State, channel: Channel, day: int) -> Audience:
    """Exactly who may read a message posted now: public for the Floor (S28), else by seat."""
    if can_read(state, None, channel, day):
        return Audience.everyone()
    return Audience.only(*(s.index for s in state.seats if can_read(state, s.index, channel, day)))


@dataclass(frozen=True)
class Sent:
    """A stored post: its journal seq, and the poster's own cursor there (what its pages'
    streams number the message)."""

    seq: int
    cursor: int


async def do_post(
    db: AsyncSession, context: GameContext, channel: Channel, text: str, now: datetime
) -> Sent:
    """Post a message if the engine allows it, within the rate limit; where it was journaled."""
    game = context.game
    if context.seat is None:
        raise Refused("Spectators read the Floor but do not post.", "S28")
    text = text.replace("\r\n", "\n")  # browsers send CRLF; store what the person sees
    lock = STATION.writer_lock(game.public_id)
    async with lock:
        # The game as the request read it is the newest this process knows unless a writer
        # before this one committed a version since (each caches what it reached before letting
        # go): else it is read again.
        for attempt in range(ATTEMPTS):
            if attempt and context.seat_row is not None:
                await db.refresh(context.seat_row)  # the rollback expired it
            if attempt or (known_later(game) and not await read_again(db, context)):
                await db.refresh(game)  # after a rollback (it expired the game), or as a fallback
            try:
                return await _post_once(db, context, channel, text, now)
            except Conflict:
                continue  # another process took this sequence number: again
        # The last lost race's rollback expired the context's rows: read them again, so that
        # the refusal's answer (a flash back on the game's page, a claim's form) can read them
        # (a lazy load here is an error: a 500 instead of the refusal).
        await reload_context(db, context)
    raise Stale("Many messages arrived at once and this one could not get through; send it again.")


async def _post_once(
    db: AsyncSession, context: GameContext, channel: Channel, text: str, now: datetime
) -> Sent:
    """One attempt under the writer lock: check, store, journal, commit (a lost race for the
    journal's next seq: `Conflict`)."""
    game, seat = context.game, context.seat
    assert seat is not None  # checked by do_post
    poster = Poster(game.id, game.public_id, seat, listener_of(context))
    sent = await post_as(db, poster, await load_state(db, game), channel, text, now)
    assert sent is not None  # stored one way or the other
    return sent


@dataclass(frozen=True)
class Poster:
    """Who posts in which game: its row id and public id, the seat, and whom the journal
    counts for them (`listener_of`)."""

    game_id: int
    public_id: str
    seat: int
    listener: journal.Listener


async def post_as(
    db: AsyncSession,
    poster: Poster,
    state: State,
    channel: Channel,
    text: str,
    now: datetime,
    *,
    together_only: bool = False,
) -> Sent | None:
    """`_post_once` on the game at `state`, under the writer lock; with `together_only`, None
    (nothing stored) when the message cannot be stored together with its journal row."""
    try:
        check_post(state, poster.seat, channel, text)
    except IllegalAction as error:
        raise explain(error) from None
    stream, listener = stream_of(poster.public_id), poster.listener
    audience = readers(state, channel, state.day)
    payload = {"channel": channel.value, "day": state.day, "seat": poster.seat}
    message = Event(MESSAGE_EVENT, payload, audience)  # its "id": the message's, once stored
    write = GameWrite(db, STATION, poster.public_id)  # the game row itself is not written
    rate = chat_rate_of(db)
    values = within_rate_values(
        rate, poster.game_id, poster.seat, channel.value, state.day, text, now
    )
    # The message and its journal row stored together (PostgreSQL: one statement; SQLite: one
    # unit of a shared commit), else one after the other in a transaction; the journal's row
    # numbered after the stream's last as it is stored (the writer lock keeps this process's
    # writers out until the commit, a unique (stream, seq) the others).
    stored = await write.commit_inserting(
        INSERT_WITHIN_RATE, values, [message], "id", lambda: rate_limited(rate)
    )
    if stored is not None:
        seq = stored[0]
    elif together_only:
        return None
    else:
        message_id = await insert_within_rate(db, values, rate)
        write.journal([keyed(message, "id", message_id)])
        seq = await write.commit()
    return Sent(seq, await _cursor_at(db, stream, listener, seq))


async def _cursor_at(db: AsyncSession, stream: str, listener: journal.Listener, seq: int) -> int:
    """The poster's cursor at their message's `seq`: known when this process knew where they
    stood right before it (the commit moved them on: live/known_positions.py), else read."""
    known = known_positions(db).get(stream, listener)
    if known is not None and known[0] == seq:
        return known[1]
    return (await position(db, stream, listener, upto=seq))[1]


class MessageRow(Protocol):
    """A chat message as pages and bots read it: a `StationMessage`, or the row `history`
    reads of one (its columns alone: no ORM object to build for each message of a page)."""

    @property
    def id(self) -> int: ...
    @property
    def day(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def channel(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def created_at(self) -> datetime: ...


_SHOWN = (
    StationMessage.id,
    StationMessage.day,
    StationMessage.seat,
    StationMessage.channel,
    StationMessage.text,
    StationMessage.created_at,
)
"""What a page or a bot reads of a message."""
_READABLE = select(*_SHOWN).where(
    StationMessage.game_id == bindparam("game"),
    StationMessage.channel == bindparam("channel"),
    StationMessage.day.in_(bindparam("days", expanding=True)),
)
_NEWEST = _READABLE.order_by(StationMessage.id.desc()).limit(bindparam("limit"))
_NEWEST_BEFORE = (
    _READABLE.where(StationMessage.id < bindparam("before"))
    .order_by(StationMessage.id.desc())
    .limit(bindparam("limit"))
)
"""A channel's newest messages on the readable days (on every page with chat): built once."""
_SPANNING = select(*_SHOWN).where(
    StationMessage.game_id == bindparam("game"),
    StationMessage.channel == bindparam("channel"),
    StationMessage.day.between(bindparam("first"), bindparam("last")),
)
_NEWEST_SPANNING = _SPANNING.order_by(StationMessage.id.desc()).limit(bindparam("limit"))
_NEWEST_SPANNING_BEFORE = (
    _SPANNING.where(StationMessage.id < bindparam("before"))
    .order_by(StationMessage.id.desc())
    .limit(bindparam("limit"))
)
"""The same when the readable days follow one another (the Floor's, and most others'): a range
binds no list, so the statement goes straight through the driver on SQLite (db/driver.py)."""


class ShownMessage(NamedTuple):
    """A message's columns as `history` reads them through the driver."""

    id: int
    day: int
    seat: int
    channel: str
    text: str
    created_at: datetime


def readable_days(state: State, viewer: int | None, channel: Channel) -> list[int]:
    """The days of a channel this viewer may read now (S14: interrogations are per day)."""
    return [day for day in range(1, state.day + 1) if can_read(state, viewer, channel, day)]


async def history(
    db: AsyncSession,
    game_id: int,
    state: State,
    viewer: int | None,
    channel: Channel,
    before: int | None = None,
    limit: int = PAGE,
) -> tuple[list[MessageRow], bool]:
    """The newest readable messages (before id `before`), oldest first, and whether older exist.

    Visibility is decided here, at read time, on the current state: a player burned since
    gains the Archive (S30), and after the game every player reads everything (S26).
    """
    days = readable_days(state, viewer, channel)
    if not days:
        return [], False
    rows = await _newest(db, game_id, channel, days, before, limit + 1)
    return list(reversed(rows[:limit])), len(rows) > limit


async def _newest(
    db: AsyncSession, game_id: int, channel: Channel, days: list[int], before: int | None, most: int
) -> list[MessageRow]:
    """At most `most` of the channel's newest messages on `days` (before id `before`)."""
    values: dict[str, Any] = {"game": game_id, "channel": channel.value, "limit": most}
    if before is not None:
        values["before"] = before
    if days == list(range(days[0], days[-1] + 1)):  # one range: through the driver
        values.update(first=days[0], last=days[-1])
        spanning = _NEWEST_SPANNING if before is None else _NEWEST_SPANNING_BEFORE
        return [ShownMessage(*row) for row in (await send_in(db, spanning, values)).rows]
    listing = _NEWEST if before is None else _NEWEST_BEFORE
    found = await db.execute(listing, {**values, "days": days})
    return cast(list[MessageRow], found.all())


def highlight(text: str, codenames: list[str]) -> Markup:
    """Escaped text with every codename wrapped for highlighting (plain text, no markup in)."""
    if not codenames:
        return Markup(escape(text))
    names = "|".join(re.escape(name) for name in sorted(codenames, key=len, reverse=True))
    pattern = re.compile(rf"\b({names})\b", re.IGNORECASE)
    out = Markup("")
    last = 0
    for match in pattern.finditer(text):
        out += escape(text[last : match.start()])
        out += Markup('<span class="codename">{}</span>').format(match.group(0))
        last = match.end()
    return out + escape(text[last:])


@dataclass(frozen=True)
class Panel:
    """One channel as one viewer sees it."""

    channel: str
    title: str
    messages: list[dict[str, Any]]
    older: int | None
    """The id to page back from, when older messages exist."""
    can_post: bool
    note: str = ""
    claims: bool = False
    """Whether the "Make a claim" form sits beside the text box (S43: the Floor, the Ring)."""
    log: Markup = field(default_factory=Markup)
    """`messages` as the page shows them (station/chat/messages.html)."""


def can_post(state: State, viewer: int | None, channel: Channel) -> bool:
    """Whether the engine would take a post from this viewer now (checked with sample text)."""
    if viewer is None:
        return False
    try:
        check_post(state, viewer, channel, "x")
    except IllegalAction:
        return False
    return True
