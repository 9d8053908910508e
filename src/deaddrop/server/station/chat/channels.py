"""Chat of a Station game: posting under the engine's rules, reading, paging back.

Who may read or post is the engine's answer (`can_read`, `check_post`: S14, S26, S28–S30);
this module stores messages, journals one `message` event per post whose audience is exactly
the seats that may read it then, and filters every read with `can_read` on the current state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from markupsafe import Markup, escape
from sqlalchemy import bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.station.channels import Channel, can_read, check_post
from deaddrop.engine.station.state import State
from deaddrop.server.hosting.refusals import Refused, Stale
from deaddrop.server.hosting.transaction import Conflict
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.refusals import explain
from deaddrop.server.station.game.store import STATION, load_state, write_to

RATE_COUNT = 5
RATE_WINDOW = timedelta(seconds=15)
"""At most RATE_COUNT messages per player per game in any RATE_WINDOW: talk, not a flood."""
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


async def do_post(
    db: AsyncSession, context: GameContext, channel: Channel, text: str, now: datetime
) -> int:
    """Post a message if the engine allows it; returns the journal sequence number."""
    game = context.game
    seat = context.seat
    if seat is None:
        raise Refused("Spectators read the Floor but do not post.", "S28")
    public_id, game_id = game.public_id, game.id
    text = text.replace("\r\n", "\n")  # browsers send CRLF; store what the person sees
    async with STATION.writer_lock(public_id):
        for _ in range(ATTEMPTS):
            await db.refresh(game)
            state = await load_state(db, game)
            try:
                check_post(state, seat, channel, text)
            except IllegalAction as error:
                raise explain(error) from None
            await _check_rate(db, game_id, seat, now)
            message = StationMessage(
                game_id=game_id,
                channel=channel.value,
                day=state.day,
                seat=seat,
                text=text,
                created_at=now,
            )
            db.add(message)
            await db.flush()
            payload = {"channel": channel.value, "day": state.day, "id": message.id, "seat": seat}
            write = write_to(db, game)
            write.journal([Event("message", payload, readers(state, channel, state.day))])
            try:
                return await write.commit()
            except Conflict:
                continue  # another process took this sequence number: again
    raise Stale("Many messages arrived at once and this one could not get through; send it again.")


_RECENT_POSTS = select(func.count(StationMessage.id)).where(
    StationMessage.game_id == bindparam("game"),
    StationMessage.seat == bindparam("seat"),
    StationMessage.created_at > bindparam("since"),
)
"""One seat's posts since a moment (every post counts them): built once, not per post."""


class RateLimited(Refused):
    """A post refused only for coming too fast (a bot's is retried later, not dropped)."""


async def _check_rate(db: AsyncSession, game_id: int, seat: int, now: datetime) -> None:
    """Refuse a post beyond the per-player rate, saying how long to wait."""
    values = {"game": game_id, "seat": seat, "since": now - RATE_WINDOW}
    recent = await db.scalar(_RECENT_POSTS, values)
    if (recent or 0) >= RATE_COUNT:
        seconds = int(RATE_WINDOW.total_seconds())
        raise RateLimited(
            f"You are posting quickly: at most {RATE_COUNT} messages every {seconds} seconds. "
            "Wait a few seconds, then send it again."
        )


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
) -> tuple[list[StationMessage], bool]:
    """The newest readable messages (before id `before`), oldest first, and whether older exist.

    Visibility is decided here, at read time, on the current state: a player burned since
    gains the Archive (S30), and after the game every player reads everything (S26).
    """
    days = readable_days(state, viewer, channel)
    if not days:
        return [], False
    query = select(StationMessage).where(
        StationMessage.game_id == game_id,
        StationMessage.channel == channel.value,
        StationMessage.day.in_(days),
    )
    if before is not None:
        query = query.where(StationMessage.id < before)
    rows = list(await db.scalars(query.order_by(StationMessage.id.desc()).limit(limit + 1)))
    return list(reversed(rows[:limit])), len(rows) > limit


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
