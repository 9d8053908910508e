"""What an app keeps for its live pages in `app.state` (issue 13: no module-level registries):
its fan-out (the games' hubs, the streams' turns at the database) and its looks writers."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.live.fanout import FANOUT_KEY, Fanout
from deaddrop.server.station.live.looks import LOOKS_KEY, LookWriters


def live_state(sessions: async_sessionmaker[AsyncSession]) -> dict[str, Any]:
    """The live registries of a new app, by their `app.state` keys."""
    fanout = Fanout()
    return {FANOUT_KEY: fanout, LOOKS_KEY: LookWriters(sessions, fanout.turns)}
