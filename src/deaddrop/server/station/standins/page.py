"""What the game's pages show of stand-ins: the person's own notice and button, and the
Floor's notices of today's stand-ins (public, S42)."""

from __future__ import annotations

from typing import Any

from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.standins.back import stood_in_for_me
from deaddrop.server.station.standins.ledger import KINDS
from deaddrop.server.station.tabs.info import GameInfo


def standin_values(context: GameContext, info: GameInfo, day: int) -> dict[str, Any]:
    """The template values: `standin_level` for the viewer's own stand-in (None: none), and
    `standin_notices`, today's stand-in notices for everyone at the table."""
    row = context.seat_row
    playing = info.status in ("running", "paused") and row is not None
    mine = row.bot_level if playing and row is not None and stood_in_for_me(context) else None
    notices = [a.text for a in info.announcements if a.kind in KINDS and a.day == day]
    return {"standin_level": mine, "standin_notices": notices}
