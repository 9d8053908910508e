"""The broker: Litestar channels carry only wake-ups (stream, newest seq), never content."""

from __future__ import annotations

import json
from typing import Any

from litestar.channels import ChannelsPlugin
from litestar.channels.backends.memory import MemoryChannelsBackend
from litestar.channels.backends.redis import RedisChannelsPubSubBackend

PREFIX = "wake:"


def channels_plugin(redis_url: str | None) -> ChannelsPlugin:
    """In memory for one process; Redis pub/sub when several processes serve the same games."""
    if redis_url:
        from redis.asyncio import Redis

        backend: Any = RedisChannelsPubSubBackend(
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
