"""The chat panels of a tab for one viewer: which channels, their newest messages, the forms."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.channels import Channel
from deaddrop.engine.station.state import State
from deaddrop.engine.station.views import view
from deaddrop.phrasebook.station_claims import CLAIM_CHANNELS, post_sentences
from deaddrop.server.station.chat.channels import (
    TITLES,
    Panel,
    can_post,
    highlight,
    history,
    readable_days,
)
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.tabs.context import _zone, when_text

TAB_CHANNELS: dict[str, tuple[Channel, ...]] = {
    "floor": (Channel.FLOOR,),
    "dossier": (Channel.RING, Channel.ARCHIVE, Channel.INTERROGATION),
}
"""The Floor chat sits beside the tally; the secret channels live in the private Dossier."""


def message_json(state: State, row: StationMessage, zone_name: str) -> dict[str, Any]:
    """A message as a template shows it: escaped, codenames highlighted, in the reader's zone."""
    codenames = [seat.codename for seat in state.seats]
    author = state.seats[row.seat].codename
    return {
        "id": row.id,
        "day": row.day,
        "codename": author,
        "html": highlight(row.text, codenames),
        # S43: a claim post reads as plain sentences; free text, the empty list.
        "claim": [highlight(s, codenames) for s in post_sentences(author, row.channel, row.text)],
        "when": when_text(row.created_at, _zone(zone_name)),
        "iso": row.created_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def _note(state: State, viewer: int | None, channel: Channel) -> str:
    """What a channel says above its messages: the Ring's order (S29), the interrogation (S14)."""
    if viewer is None or state.over:
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
) -> Panel | None:
    """One channel for one viewer, or None when the engine lets them read none of it."""
    if not readable_days(state, viewer, channel):
        return None
    rows, more = await history(db, game_id, state, viewer, channel, before)
    posting = can_post(state, viewer, channel)
    return Panel(
        channel=channel.value,
        title=TITLES[channel],
        messages=[message_json(state, row, zone_name) for row in rows],
        older=rows[0].id if more and rows else None,
        can_post=posting,
        note=_note(state, viewer, channel),
        claims=posting and channel.value in CLAIM_CHANNELS and not state.over,
    )


async def chat_values(
    db: AsyncSession, game_id: int, state: State, viewer: int | None, tab: str, zone: str
) -> dict[str, Any]:
    """What a tab's templates need for its chat panels (none for tabs without chat)."""
    panels = []
    for channel in TAB_CHANNELS.get(tab, ()):
        found = await panel(db, game_id, state, viewer, channel, zone)
        if found is not None:
            panels.append(found)
    return {"chat": panels}
