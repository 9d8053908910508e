"""The server's signal that it is shutting down: open live streams end, so the process can exit.

A live stream never ends by itself, and uvicorn waits for open responses before it stops; so
`deaddrop serve` sets this event the moment it is asked to stop (SIGTERM, Ctrl+C), and every
stream ends. Browsers reconnect with Last-Event-ID to whichever process serves next.
"""

from __future__ import annotations

import asyncio

from litestar import Litestar

STATE_KEY = "live_shutdown"
"""Where the event lives in `app.state`."""


def shutdown_event(app: Litestar) -> asyncio.Event:
    """The app's shutdown event, made on first use (set by `deaddrop serve` when it stops)."""
    event = app.state.get(STATE_KEY)
    if not isinstance(event, asyncio.Event):
        event = asyncio.Event()
        app.state[STATE_KEY] = event
    return event
