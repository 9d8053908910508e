"""The live sweep: every second, a process checks that its hubs have read their games' journals
up to the newest row, whatever the broker delivered.

Redis pub/sub delivers at most once. A wake-up published while a process's subscription
connection reconnects, one a writer failed to send after its commit (logged, never failing the
write), or the writes of a `deaddrop worker` run without Redis would otherwise leave a game's
open pages behind until its next wake-up, minutes or a day later. The sweep reads the newest
seq of every game with an open page in this process in one statement, and nudges each hub that
is behind; that hub's one read then serves all its streams, as after a wake-up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.live.journal import last_seqs
from deaddrop.server.live.turns import Turns

Sessions = async_sessionmaker[AsyncSession]
SWEEP_SECONDS = 1.0
"""How often; a delivery whose wake-up was lost arrives at most this much later."""
STREAMS_AT_ONCE = 500
"""Streams per statement (a bound on the query's parameters)."""
_log = logging.getLogger("deaddrop.server.live")


class Swept(Protocol):
    """A hub, as the sweep sees it."""

    stream: str
    sessions: Sessions
    seen: int
    """The newest seq the hub has read."""
    wanted: int
    """The newest seq a wake-up (or an earlier sweep) told it of."""

    @property
    def ready(self) -> asyncio.Event: ...

    def want(self, newest: int) -> None: ...


async def sweep(hubs: Callable[[], Sequence[Swept]], turns: Turns) -> None:
    """Forever: every SWEEP_SECONDS, nudge each of `hubs()` whose journal holds rows past
    what the hub has been told of."""
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        try:
            await sweep_once(hubs(), turns)
        except Exception:  # never end the sweep: the next one may do better
            _log.exception("live sweep failed")


async def sweep_once(hubs: Sequence[Swept], turns: Turns) -> None:
    """Read the newest seq of each hub's stream (per database) and nudge the hubs behind it."""
    groups: dict[Sessions, list[Swept]] = {}
    for hub in hubs:
        if hub.ready.is_set():
            groups.setdefault(hub.sessions, []).append(hub)
    for sessions, group in groups.items():
        streams = sorted({hub.stream for hub in group})
        try:
            newest = await _newest(turns, sessions, streams)
        except Exception:  # the next sweep tries again; the wake-ups go on meanwhile
            _log.warning("live sweep failed; again in %.1f s", SWEEP_SECONDS, exc_info=True)
            continue
        for hub in group:
            found = newest.get(hub.stream, 0)
            if found > hub.seen:
                _log_behind(hub, found)
            hub.want(found)


def _log_behind(hub: Swept, found: int) -> None:
    """Say that a hub was behind: at INFO when no wake-up told it (one lost, or rarely one
    still on its way), at DEBUG when one did and its read had not got there (most often a read
    still running)."""
    if found > hub.wanted:
        _log.info(
            "the live sweep found %s at %d: its last wake-up said %d; reading on",
            hub.stream,
            found,
            hub.wanted,
        )
    else:
        _log.debug("the live sweep found %s at %d: read up to %d", hub.stream, found, hub.seen)


async def _newest(turns: Turns, sessions: Sessions, streams: list[str]) -> dict[str, int]:
    newest: dict[str, int] = {}
    for start in range(0, len(streams), STREAMS_AT_ONCE):
        async with turns.reading(shared=True), sessions() as db:
            newest.update(await last_seqs(db, streams[start : start + STREAMS_AT_ONCE]))
    return newest
