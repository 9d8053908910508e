"""One Server-Sent Events reader: connects, notes when each marker first arrives, and comes
back with Last-Event-ID when the stream drops, as a browser's EventSource does."""

from __future__ import annotations

import asyncio
import random
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
REFUSED_SECONDS = (5.0, 10.0)
"""After a refusal (a 503: EventSource then gives the stream up), the page's script tries
again between 5 and 10 s later, spread out, first with a check of the stream's status
(static/station_live.js `retry`): a crowd turned away must not come back all at once."""

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
        self.events: list[tuple[str, int]] = []
        """(SSE event name, data bytes) of each push, in order ("message" when unnamed)."""
        self.connected = asyncio.Event()
        self.drops = 0
        self.refusals: list[str] = []
        self.last_id: int | None = None

    async def run(self) -> None:
        """Read until cancelled, reconnecting after a drop as the page's script does."""
        while True:
            status = await self._open(read=True)
            self.drops += 1
            if status is None or status == 200:
                await asyncio.sleep(RETRY_SECONDS)  # EventSource reconnects by itself
                continue
            # Refused: the script waits, checks the stream's status, then listens again
            # (whatever the check said, but a 4xx other than 429, which ends its retries).
            await asyncio.sleep(random.uniform(*REFUSED_SECONDS))
            status = await self._open(read=False)
            if status is not None and 400 <= status < 500 and status != 429:
                return

    async def _open(self, *, read: bool) -> int | None:
        """Open the stream: its status (None: no answer), then its events if `read`."""
        writer = None
        try:
            reader, writer = await asyncio.open_connection(self.address.host, self.address.port)
            writer.write(self.request(self.last_id))
            status, _headers = await read_head(reader)
            if status != 200:
                self.refusals.append(str(status))
            elif read:
                await self._read(reader)
            return status
        except ERRORS as error:
            self.refusals.append(type(error).__name__)
            return None
        finally:
            if writer is not None:
                writer.close()

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
        name = "message"
        for line in event.split("\n"):
            if line.startswith(":"):
                self.connected.set()  # the server's first comment: subscribed from here
            elif line.startswith("id:"):
                self.last_id = int(line[3:].strip())
            elif line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
        if not any(data):
            return
        text = "\n".join(data)
        self.push_sizes.append(len(text.encode()))
        self.events.append((name, len(text.encode())))
        for marker in MARKER.findall(text):
            self.arrivals.setdefault(marker, now)
