"""Litestar's Redis pub/sub backend, made to outlive Redis going away and coming back.

As shipped, the backend's one reader of wake-ups ends at the first lost connection (a Redis
restart, a network blip): the process then hears no wake-up again until it restarts, and its
plugin raises the old error at shutdown. And a page opened while Redis is away fails its
subscription, which Litestar still counts as made, so that game's wake-ups would never be
subscribed in this process again. Here the reader waits and reads on (redis-py reconnects and
subscribes the connection's channels again), a subscription made while Redis is away is
remembered for that reconnection, and the live sweep (`sweep.py`) delivers meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Iterable
from typing import Any

from litestar.channels.backends.redis import RedisChannelsPubSubBackend
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

LOST = (RedisConnectionError, RedisTimeoutError, OSError)
"""What a lost or refused connection to Redis raises."""
RECONNECT_SECONDS = (0.1, 0.5, 1.0, 2.0, 5.0)
"""The pauses before reading again after a lost connection, the last one repeated while
Redis stays away; a read that works starts them afresh."""
_log = logging.getLogger("deaddrop.server.live")


class LastingPubSubBackend(RedisChannelsPubSubBackend):
    """Redis pub/sub whose stream of wake-ups survives lost connections."""

    async def stream_events(self) -> AsyncGenerator[tuple[str, Any], None]:
        """The subscribed channels' messages, across lost connections."""
        failures = 0
        while True:
            await self._has_subscribed.wait()
            try:
                await self._connected()
                if self._pub_sub.connection is None:
                    # Every channel was forgotten while Redis was away: none to read (redis-py
                    # refuses a read without a connection) until a page subscribes again.
                    await asyncio.sleep(RECONNECT_SECONDS[0])
                    continue
                message = await self._pub_sub.get_message(
                    ignore_subscribe_messages=True, timeout=self._stream_sleep_no_subscriptions
                )
            except LOST as error:
                pause = RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)]
                failures += 1
                _log.warning(
                    "Redis pub/sub connection lost (%s); reading again in %.1f s "
                    "(meanwhile the live sweep delivers)",
                    error,
                    pause,
                )
                await asyncio.sleep(pause)
                continue
            failures = 0
            if message is not None and self._listens_to(message["channel"]):
                yield message["channel"].decode(), message["data"]

    def _listens_to(self, channel: bytes) -> bool:
        """Whether a message's channel is still wanted: an unsubscription takes effect in
        Redis a little after it is asked for, and messages may come in between."""
        pubsub = self._pub_sub
        return channel in pubsub.channels and channel not in pubsub.pending_unsubscribe_channels

    async def _connected(self) -> None:
        """Connect the pub/sub connection if Redis was away when it was first wanted, and
        subscribe it to the channels remembered meanwhile (redis-py does so by itself only
        when a connection it already had comes back)."""
        pubsub = self._pub_sub
        if pubsub.connection is None and pubsub.channels:
            await pubsub.connect()  # type: ignore[no-untyped-call]
            assert pubsub.connection is not None
            await pubsub.on_connect(pubsub.connection)

    async def subscribe(self, channels: Iterable[str]) -> None:
        """Subscribe to `channels`; while Redis is away, at its reconnection."""
        wanted = list(channels)
        try:
            await super().subscribe(wanted)
        except LOST as error:
            _log.warning("Redis is away (%s): subscribing when it is back", error)
            self._pub_sub.channels.update(dict.fromkeys(channel.encode() for channel in wanted))
            self._has_subscribed.set()

    async def unsubscribe(self, channels: Iterable[str]) -> None:
        """Unsubscribe from `channels`; while Redis is away, just forget them (the reconnection
        then leaves them out)."""
        unwanted = list(channels)
        try:
            await super().unsubscribe(unwanted)
        except LOST:
            for channel in unwanted:
                self._pub_sub.channels.pop(channel.encode(), None)
                self._pub_sub.pending_unsubscribe_channels.discard(channel.encode())
            if not self._pub_sub.channels:
                self._has_subscribed.clear()  # as the backend does once none is left
