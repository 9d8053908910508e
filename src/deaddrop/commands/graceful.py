"""uvicorn's server, stopping the way process managers and containers expect of `serve`."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from collections.abc import Iterator
from types import FrameType

import uvicorn

SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""What asks the server to stop: Ctrl+C, and a process manager's or container's SIGTERM."""


class GracefulServer(uvicorn.Server):
    """On SIGTERM or Ctrl+C: set `stopping` at once, so that the app's open live streams end
    (uvicorn waits for open responses before it stops), finish, and let the command exit 0."""

    def __init__(self, config: uvicorn.Config, stopping: asyncio.Event) -> None:
        super().__init__(config)
        self.stopping = stopping
        self._loop: asyncio.AbstractEventLoop | None = None

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        """Serve until asked to stop, remembering the loop the signal handler must reach."""
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """uvicorn's stop (a second Ctrl+C forces it), and the streams' stop event."""
        super().handle_exit(sig, frame)
        if self._loop is not None:
            # A signal handler runs between two bytecodes of whatever the loop was doing: hand
            # the event to the loop rather than touch its waiters from here.
            self._loop.call_soon_threadsafe(self.stopping.set)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Route the stop signals to `handle_exit` while serving.

        uvicorn's own version raises the signal again after a graceful stop, so SIGTERM would
        end the process with status 143; a stop that was asked for and done is a success.
        """
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in SIGNALS}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
