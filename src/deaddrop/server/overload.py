"""Shedding load cleanly: a busy server answers 503 with Retry-After, never a 500 (issue 15).

Two gates, both cheap counters in this process:
- requests in flight (every HTTP request but a live stream): past the limit a request is
  refused before it reads the database, so the ones already admitted finish in good time;
- open live streams: each holds a socket and a wake-up subscription for as long as the page
  is open, so they have a limit of their own, much larger; they connect a few at a time
  (connecting.py), and one that waits too long for its turn is refused before it reads.

A request already admitted that still finds the database saturated (the connection pool
exhausted, or SQLite's writer lock held past its busy timeout) is rolled back and answered the
same way. Nothing it tried to write was kept, and the answer says so: the person (or the page's
script, which keeps the draft) sends it again, so a post is never half taken.
"""

from __future__ import annotations

from dataclasses import dataclass

from litestar.enums import ScopeType
from litestar.exceptions import HTTPException
from litestar.types import ASGIApp, HTTPScope, Receive, Scope, Send
from sqlalchemy import exc as sql_errors

from deaddrop.server.connecting import ConnectTurns, TurnTimeout

RETRY_AFTER_SECONDS = 1
"""How long a refused client waits: a queue drains within about a second."""
STREAM_RETRY_AFTER_SECONDS = 5
"""A refused stream tries later than a request: a page works without its stream meanwhile."""
BUSY_MESSAGE = "The server is busy. Nothing was saved; send it again in a moment."
STREAMS_MESSAGE = "Too many live pages are open right now; this one will reconnect shortly."


class Overloaded(HTTPException):
    """A request turned away for lack of capacity (503), with when to come back."""

    status_code = 503


@dataclass(frozen=True)
class Limits:
    """How much one process takes on at once."""

    requests: int = 64
    """Requests in flight, live streams apart."""
    streams: int = 10_000
    """Open live streams (Server-Sent Events)."""


def is_stream(scope: HTTPScope) -> bool:
    """Whether the request opens a live stream (every stream's address ends in `/events`)."""
    return scope["method"] == "GET" and scope["path"].endswith("/events")


class Gate:
    """The counts of one process, shared by every route: Litestar builds the middleware stack
    once per route handler, so a counter made inside the factory would count one route only."""

    def __init__(self, limits: Limits, connecting: ConnectTurns | None = None) -> None:
        self.limits = limits
        self.counts = {"requests": 0, "streams": 0}
        self.connecting = connecting or ConnectTurns()


def shed_load(app: ASGIApp, gate: Gate) -> ASGIApp:
    """ASGI middleware factory: past a limit, a request is refused with 503 and Retry-After."""
    counts = gate.counts

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await app(scope, receive, send)
            return
        kind = "streams" if is_stream(scope) else "requests"
        if counts[kind] >= getattr(gate.limits, kind):
            raise _refusal(kind)
        counts[kind] += 1
        try:
            if kind == "streams":
                await gate.connecting.connect(app, scope, receive, send)
            else:
                await app(scope, receive, send)
        except TurnTimeout:
            raise _refusal(kind) from None
        finally:
            counts[kind] -= 1

    return middleware


def _refusal(kind: str) -> Overloaded:
    """The 503 for a full gate of `kind`."""
    if kind == "streams":
        seconds, message = STREAM_RETRY_AFTER_SECONDS, STREAMS_MESSAGE
    else:
        seconds, message = RETRY_AFTER_SECONDS, BUSY_MESSAGE
    return Overloaded(detail=message, headers={"Retry-After": str(seconds)})


def is_saturated(error: BaseException) -> bool:
    """Whether a database error means "too busy now" rather than a fault: the pool ran dry,
    or SQLite's writer lock stayed taken past the busy timeout."""
    seen: BaseException | None = error
    for _ in range(4):  # the driver's error may come wrapped by a layer or two
        if seen is None:
            return False
        if isinstance(seen, sql_errors.TimeoutError):
            return True
        if isinstance(seen, sql_errors.OperationalError) and "database is locked" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
