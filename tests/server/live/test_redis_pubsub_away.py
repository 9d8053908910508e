"""The Redis pub/sub backend while Redis is away (server/live/redis_pubsub.py), with no Redis
at all: a page's channel remembered and then forgotten leaves the reader waiting, not failing
(redis-py refuses to read a pub/sub without a connection, which ended a plugin's shutdown with
a RuntimeError once)."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from deaddrop.server.live.redis_pubsub import LastingPubSubBackend

AWAY = "redis://127.0.0.1:1/0"  # nothing listens there


async def _read_a_while(backend: LastingPubSubBackend) -> None:
    """Read the backend's events for a moment: it must wait quietly, having nothing."""
    events = backend.stream_events()
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.4):
            await anext(events)
    await events.aclose()


async def test_a_channel_forgotten_while_redis_is_away_leaves_nothing_to_read() -> None:
    client = Redis.from_url(AWAY)
    backend = LastingPubSubBackend(redis=client, key_prefix="TEST_AWAY")
    try:
        await backend.subscribe(["game"])  # remembered for when Redis is back
        await backend.unsubscribe(["game"])  # and forgotten
        assert not backend._has_subscribed._event.is_set()  # none left to read
        await _read_a_while(backend)
    finally:
        await client.aclose()


async def test_a_reader_with_no_channel_and_no_connection_waits() -> None:
    client = Redis.from_url(AWAY)
    backend = LastingPubSubBackend(redis=client, key_prefix="TEST_AWAY")
    try:
        backend._has_subscribed.set()  # as a subscription counted, its channel since gone
        await _read_a_while(backend)
    finally:
        await client.aclose()
