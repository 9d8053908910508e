"""The broker: Litestar channels carry only wake-ups (stream, newest seq), never content; and
`Wakeups`, everything a committed write wakes (listeners of a stream, due background jobs)."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from litestar import Litestar
from litestar.channels import ChannelsPlugin
from litestar.channels.backends.memory import MemoryChannelsBackend
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.live.redis_pubsub import LastingPubSubBackend

PREFIX = "wake:"


def channels_plugin(redis_url: str | None) -> ChannelsPlugin:
    """In memory for one process; Redis pub/sub when several processes serve the same games."""
    if redis_url:
        from redis.asyncio import Redis

        backend: Any = LastingPubSubBackend(
            redis=Redis.from_url(redis_url), key_prefix="DEADDROP_LIVE"
        )
    else:
        backend = MemoryChannelsBackend()
    return ChannelsPlugin(backend=backend, arbitrary_channels_allowed=True)


async def close_redis(channels: ChannelsPlugin) -> None:
    """After the plugin's shutdown: close the Redis client its backend was given (the plugin
    closes only its pub/sub connection); nothing to do in memory."""
    redis = getattr(channels._backend, "_redis", None)
    if redis is not None:
        await redis.aclose()


def wake_channel(stream: str) -> str:
    """The broker channel that wakes a stream's listeners."""
    return PREFIX + stream


async def wake(channels: ChannelsPlugin, stream: str, seq: int) -> None:
    """Tell every listener of a stream (in any process) that events up to `seq` exist."""
    await channels.wait_published(json.dumps({"stream": stream, "seq": seq}), wake_channel(stream))


def parse_wake(data: bytes | str) -> int:
    """The sequence number a wake-up announces (0 when it is unreadable)."""
    try:
        message = json.loads(data)
        return int(message["seq"])
    except (ValueError, KeyError, TypeError):
        return 0


WAKEUPS_KEY = "wakeups"
"""Where an app's sessions (`db.info`) and `app.state` hold its `Wakeups`."""
_log = logging.getLogger("deaddrop.server.live")


class Wakeups:
    """What one app (or one worker) wakes after a commit: the listeners of a game's stream,
    through its brokers, and the background jobs, by name, that a change made due now."""

    def __init__(self) -> None:
        self._brokers: list[ChannelsPlugin] = []
        self._jobs: dict[str, list[Callable[[], None]]] = {}

    def add_broker(self, plugin: ChannelsPlugin) -> None:
        """Wake through `plugin` too (once however often it is added)."""
        if plugin not in self._brokers:
            self._brokers.append(plugin)

    def discard_broker(self, plugin: ChannelsPlugin) -> None:
        """Stop waking through `plugin`."""
        if plugin in self._brokers:
            self._brokers.remove(plugin)

    async def stream(self, stream: str, seq: int) -> None:
        """After commit: wake every listener of a stream (content-free; they read the DB)."""
        if seq <= 0:
            return
        for broker in list(self._brokers):
            try:
                await wake(broker, stream, seq)
            except Exception:  # a wake-up lost is caught up by the next one; never fail a write
                _log.exception("wake-up of %s failed", stream)

    def on_due(self, job: str, listener: Callable[[], None]) -> None:
        """Be told when a committed change made work of `job` due now (its runner's wake)."""
        self._jobs.setdefault(job, []).append(listener)

    def off_due(self, job: str, listener: Callable[[], None]) -> None:
        """Stop being told."""
        listeners = self._jobs.get(job, [])
        if listener in listeners:
            listeners.remove(listener)

    @contextlib.contextmanager
    def listening(self, job: str, listener: Callable[[], None]) -> Iterator[None]:
        """Be told of due work of `job` for the duration of the block (a job's run)."""
        self.on_due(job, listener)
        try:
            yield
        finally:
            self.off_due(job, listener)

    def due(self, job: str) -> None:
        """After commit: a change made work of `job` due now (a Pouch, a bot's move)."""
        for listener in list(self._jobs.get(job, [])):
            listener()


def wakeups_of(db: AsyncSession) -> Wakeups:
    """The wake-ups of the app whose sessionmaker made `db` (none for a bare sessionmaker)."""
    wakeups = db.info.setdefault(WAKEUPS_KEY, Wakeups())
    assert isinstance(wakeups, Wakeups)
    return wakeups


def wakeups_in(sessionmaker: async_sessionmaker[AsyncSession]) -> Wakeups:
    """The wake-ups the sessions of `sessionmaker` carry (a fresh, unheard one if none)."""
    wakeups = sessionmaker.kw.get("info", {}).get(WAKEUPS_KEY, Wakeups())
    assert isinstance(wakeups, Wakeups)
    return wakeups


def register_broker(app: Litestar) -> None:
    """On startup: writers with or without a request (the runners) wake through the app's
    broker."""
    app.state[WAKEUPS_KEY].add_broker(app.plugins.get(ChannelsPlugin))


def unregister_broker(app: Litestar) -> None:
    """On shutdown: stop waking through this app's broker."""
    app.state[WAKEUPS_KEY].discard_broker(app.plugins.get(ChannelsPlugin))


@contextlib.asynccontextmanager
async def worker_broker(
    redis_url: str | None, wakeups: Wakeups
) -> AsyncIterator[ChannelsPlugin | None]:
    """A broker for a process without the web app (`deaddrop worker`): what it writes wakes
    the open pages of every server process through Redis. Without Redis no wake-up reaches
    them; each server's live sweep (`sweep.py`) finds the new rows within about a second."""
    if not redis_url:
        _log.warning(
            "REDIS_URL is not set: open game pages hear of what this worker writes at the "
            "servers' next live sweep, within about a second (set REDIS_URL to push at once)"
        )
        yield None
        return
    plugin = channels_plugin(redis_url)
    try:
        async with plugin:
            wakeups.add_broker(plugin)
            try:
                yield plugin
            finally:
                wakeups.discard_broker(plugin)
    finally:
        await close_redis(plugin)
