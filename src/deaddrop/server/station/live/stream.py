"""A Station game's journal stream (DESIGN.md: content in the DB, never on the broker). Writers
journal inside their transaction and wake after commit (server/hosting/transaction.py)."""

from __future__ import annotations

from deaddrop.server.live import journal
from deaddrop.server.station.game.access import GameContext

NOTICE_EVENT = "host_notice"
"""The journal kind of a host's public notice (pause, resume, extension, handover, removal)."""
MESSAGE_EVENT = "message"
"""The journal kind of a chat post (its payload: channel, day, message id, seat)."""


def stream_of(public_id: str) -> str:
    """The journal stream of one Station game."""
    return journal.stream_name("station", public_id)


def listener_of(context: GameContext) -> journal.Listener:
    """Who the journal filters for: the seat, the public (None), or every event once over."""
    if context.seat is None:
        return None
    # S26: after the game every player reads everything; what is sent is still re-rendered.
    return journal.EVERYONE if context.game.status == "over" else context.seat
