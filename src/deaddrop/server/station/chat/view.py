"""The chat panels of a tab for one viewer: which channels, their newest messages, the forms."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from markupsafe import Markup
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.channels import Channel
from deaddrop.engine.station.state import State
from deaddrop.engine.station.views import view
from deaddrop.phrasebook.station_claims import CLAIM_CHANNELS, post_sentences
from deaddrop.server.render import fragment
from deaddrop.server.station.chat.channels import (
    TITLES,
    MessageRow,
    Panel,
    can_post,
    highlight,
    history,
    readable_days,
)
from deaddrop.server.station.tabs.context import _zone, when_text
from deaddrop.server.station.tabs.memos import JournalAt, page_memos

TAB_CHANNELS: dict[str, tuple[Channel, ...]] = {
    "floor": (Channel.FLOOR,),
    "dossier": (Channel.RING, Channel.ARCHIVE, Channel.INTERROGATION),
}
"""The Floor chat sits beside the tally; the secret channels live in the private Dossier."""
MESSAGES_KEPT = 8192
"""Messages kept as shown (per reader's zone): the newest pages of the games being read."""


def message_json(state: State, row: MessageRow, zone_name: str) -> dict[str, Any]:
    """A message as a template shows it: escaped, codenames highlighted, in the reader's zone."""
    return dict(_message(*_inputs(state, [row], zone_name)[0]))


def _inputs(state: State, rows: list[MessageRow], zone_name: str) -> list[tuple[Any, ...]]:
    """Every input of each message as shown, hashable: `_message`'s and `_message_html`'s key."""
    codenames = tuple(seat.codename for seat in state.seats)
    return [
        (row.id, row.day, row.seat, row.channel, row.text, row.created_at, codenames, zone_name)
        for row in rows
    ]


def messages_log(state: State, rows: list[MessageRow], zone_name: str) -> Markup:
    """A channel's messages as the panel lists them (`station/chat/messages.html`), each one
    rendered once and kept: a new post leaves the others' HTML as it was, so a page after it
    renders the new message alone. The same as rendering the whole list at once (tested)."""
    return _log(_inputs(state, rows, zone_name))


def _log(inputs: list[tuple[Any, ...]]) -> Markup:
    """`messages_log` of the messages' inputs."""
    return Markup("").join(_message_html(*each) for each in inputs)


@lru_cache(maxsize=MESSAGES_KEPT)
def _message_html(*inputs: Any) -> Markup:
    """One message as the panel's log lists it, for `_message`'s inputs."""
    return fragment("station/chat/messages.html", messages=[_message(*inputs)])


@lru_cache(maxsize=MESSAGES_KEPT)
def _message(
    message_id: int,
    day: int,
    seat: int,
    channel: str,
    text: str,
    created_at: datetime,
    codenames: tuple[str, ...],
    zone_name: str,
) -> dict[str, Any]:
    """`message_json` of these values. Every page of a game shows the same messages again, and
    the highlighting and the times are the costly part of a page; the key is every input, so a
    kept answer is always the one these values give."""
    author = codenames[seat]
    names = list(codenames)
    return {
        "id": message_id,
        "day": day,
        "codename": author,
        "html": highlight(text, names),
        # S43: a claim post reads as plain sentences; free text, the empty list.
        "claim": [highlight(s, names) for s in post_sentences(author, channel, text)],
        "when": when_text(created_at, _zone(zone_name)),
        "iso": created_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def _note(state: State, viewer: int | None, channel: Channel) -> str:
    """What a channel says above its messages: the Ring's order (S29), the interrogation (S14)."""
    if viewer is None or state.over or channel not in (Channel.RING, Channel.INTERROGATION):
        return ""
    seen = view(state, viewer)
    if channel is Channel.RING and "ring" in seen:
        ring = seen["ring"]
        order = ring.get("order")
        if order:
            return (
                f"Today's order: {order['order_target']} is to be liquidated, "
                f"performed by {order['performer']}."
            )
        holder = ring.get("order_holder")
        return f"No order filed yet today; {holder} holds the order." if holder else ""
    if channel is Channel.INTERROGATION:
        partner = seen["me"]["interrogation_open_with"]
        if partner:
            return f"Open with {partner} until the next Pouch; the two of you keep its history."
        return "Closed: only its history stays readable for the two of you."
    return ""


async def panel(
    db: AsyncSession,
    game_id: int,
    state: State,
    viewer: int | None,
    channel: Channel,
    zone_name: str,
    before: int | None = None,
    at: JournalAt | None = None,
) -> Panel | None:
    """One channel for one viewer, or None when the engine lets them read none of it; `at`
    lets a page reuse what another page read at the same journal position."""
    days = readable_days(state, viewer, channel)
    if not days:
        return None
    # A channel's newest messages by (game and journal position, channel, the readable days,
    # `before`, zone). Who reads which days is the engine's answer, and the journal numbers
    # every post, so readers with the same key read the same rows (the Floor: everyone; a
    # secret channel: only readers of those very days, S14, S29, S30).
    key = (at, channel.value, tuple(days), before, zone_name) if at is not None else None
    memo = page_memos(db).shown
    shown = memo.get(key) if key is not None else None
    if shown is None:
        rows, more = await history(db, game_id, state, viewer, channel, before)
        inputs = _inputs(state, rows, zone_name)  # the codenames read once a panel
        messages = [dict(_message(*each)) for each in inputs]
        log = _log(inputs)
        shown = (messages, rows[0].id if more and rows else None, log)
        if key is not None:
            memo.put(key, shown)
    posting = can_post(state, viewer, channel)
    return Panel(
        channel=channel.value,
        title=TITLES[channel],
        messages=list(shown[0]),  # the page's own list: a kept one is never changed
        older=shown[1],
        log=shown[2],
        can_post=posting,
        note=_note(state, viewer, channel),
        claims=posting and channel.value in CLAIM_CHANNELS and not state.over,
    )


async def chat_values(
    db: AsyncSession,
    game_id: int,
    state: State,
    viewer: int | None,
    tab: str,
    zone: str,
    at: JournalAt | None = None,
) -> dict[str, Any]:
    """What a tab's templates need for its chat panels (none for tabs without chat)."""
    panels = []
    for channel in TAB_CHANNELS.get(tab, ()):
        found = await panel(db, game_id, state, viewer, channel, zone, at=at)
        if found is not None:
            panels.append(found)
    return {"chat": panels}
