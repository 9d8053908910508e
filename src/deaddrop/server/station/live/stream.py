"""A Station game's journal stream and its wake-ups (DESIGN.md: content in the DB, never on the
broker). Writers journal inside their transaction and wake after commit."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Iterable

from litestar import Litestar
from litestar.channels import ChannelsPlugin
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.events import Event
from deaddrop.server.live import journal
from deaddrop.server.live.wakeup import channels_plugin, close_redis, wake

logger = logging.getLogger("deaddrop.station")

NOTICE_EVENT = "host_notice"
"""The journal kind of a host's public notice (pause, resume, extension, handover, removal)."""

BROKERS_KEY = "station_brokers"
"""Where an app's sessions (`db.info`) and `app.state` hold its `Brokers`."""


class Brokers:
    """The brokers one app (or one worker) wakes a Station game's listeners through."""

    def __init__(self) -> None:
        self._plugins: list[ChannelsPlugin] = []

    def add(self, plugin: ChannelsPlugin) -> None:
        """Wake through `plugin` too (once however often it is added)."""
        if plugin not in self._plugins:
            self._plugins.append(plugin)

    def discard(self, plugin: ChannelsPlugin) -> None:
        """Stop waking through `plugin`."""
        if plugin in self._plugins:
            self._plugins.remove(plugin)

    async def wake_game(self, public_id: str, seq: int) -> None:
        """After commit: wake every listener of the game (content-free; they read the DB)."""
        if seq <= 0:
            return
        for broker in list(self._plugins):
            try:
                await wake(broker, stream_of(public_id), seq)
            except Exception:  # a wake-up lost is caught up by the next one; never fail a write
                logger.exception("wake-up of %s failed", public_id)


def brokers_of(db: AsyncSession) -> Brokers:
    """The brokers of the app whose sessionmaker made `db` (none for a bare sessionmaker)."""
    brokers = db.info.setdefault(BROKERS_KEY, Brokers())
    assert isinstance(brokers, Brokers)
    return brokers


def stream_of(public_id: str) -> str:
    """The journal stream of one Station game."""
    return journal.stream_name("station", public_id)


async def journal_events(db: AsyncSession, public_id: str, events: Iterable[Event]) -> int:
    """Journal a write's events with the engine's audience (call before commit); the new seq.

    Nothing is flushed: a lost race must surface in the writer's own commit (a retry).
    """
    return await journal.append(db, stream_of(public_id), events, flush=False)


def register_broker(app: Litestar) -> None:
    """On startup: writers without a request (the Pouch runner, the service) wake through it."""
    app.state[BROKERS_KEY].add(app.plugins.get(ChannelsPlugin))


@contextlib.asynccontextmanager
async def worker_broker(
    redis_url: str | None, brokers: Brokers
) -> AsyncIterator[ChannelsPlugin | None]:
    """A broker for a process without the web app (`deaddrop worker`): the Pouches it resolves
    wake the open pages of every server process through Redis. Without Redis nothing could
    reach them; they then learn of the Cable at their next wake-up or reconnect."""
    if not redis_url:
        logger.warning(
            "REDIS_URL is not set: open game pages hear of the Pouches this worker resolves "
            "only at their next wake-up (set REDIS_URL to push them at once)"
        )
        yield None
        return
    plugin = channels_plugin(redis_url)
    try:
        async with plugin:
            brokers.add(plugin)
            try:
                yield plugin
            finally:
                brokers.discard(plugin)
    finally:
        await close_redis(plugin)


def unregister_broker(app: Litestar) -> None:
    """On shutdown: stop waking through this app's broker."""
    app.state[BROKERS_KEY].discard(app.plugins.get(ChannelsPlugin))


async def wake_game(db: AsyncSession, public_id: str, seq: int) -> None:
    """After `db` committed: wake every listener of the game through its app's brokers."""
    await brokers_of(db).wake_game(public_id, seq)
