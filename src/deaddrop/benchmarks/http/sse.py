"""One Server-Sent Events reader: connects, notes when each marker first arrives, and comes
back with Last-Event-ID when the stream drops, as a browser's EventSource does."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from time import monotonic

from deaddrop.benchmarks.http.saturate import ERRORS
from deaddrop.benchmarks.http.wire import Address, read_chunk, read_head

MARKER = re.compile(r"LIVEMARK\d+N\d+N\d+E")
"""What a measured post says: unique per post (step, round, room), plain letters and digits
(nothing for a template to escape)."""
RETRY_SECONDS = 3.0
"""The reconnection delay the server asks for (server/live/sse.py RETRY_MILLISECONDS)."""

StreamRequest = Callable[[int | None], bytes]
"""The GET that opens the stream, given the last event id seen (None: a fresh page)."""


class Reader:
    """One open page: its stream, the markers it saw (first arrival time) and its drops."""

    def __init__(self, address: Address, room: str, request: StreamRequest) -> None:
        self.address = address
        self.room = room
        self.request = request
        self.arrivals: dict[str, float] = {}
        self.push_sizes: list[int] = []
        self.connected = asyncio.Event()
        self.drops = 0
        self.refusals: list[str] = []
        self.last_id: int | None = None

    async def run(self) -> None:
        """Read until cancelled, reconnecting after a drop."""
        while True:
            writer = None
            try:
                reader, writer = await asyncio.open_connection(self.address.host, self.address.port)
                writer.write(self.request(self.last_id))
                status, _headers = await read_head(reader)
                if status != 200:
                    self.refusals.append(str(status))
                else:
                    await self._read(reader)
            except ERRORS as error:
                self.refusals.append(type(error).__name__)
            finally:
                if writer is not None:
                    writer.close()
            self.drops += 1
            await asyncio.sleep(RETRY_SECONDS)

    async def _read(self, reader: asyncio.StreamReader) -> None:
        pending = ""
        while chunk := await read_chunk(reader):
            # Lines may end in CRLF (Litestar's do), and a chunk may end between CR and LF.
            pending = (pending + chunk.decode("utf-8", errors="replace")).replace("\r\n", "\n")
            *events, pending = pending.split("\n\n")
            for event in events:
                self._take(event)

    def _take(self, event: str) -> None:
        now = monotonic()
        data = []
        for line in event.split("\n"):
            if line.startswith(":"):
                self.connected.set()  # the server's first comment: subscribed from here
            elif line.startswith("id:"):
                self.last_id = int(line[3:].strip())
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
        if not any(data):
            return
        text = "\n".join(data)
        self.push_sizes.append(len(text.encode()))
        for marker in MARKER.findall(text):
            self.arrivals.setdefault(marker, now)
