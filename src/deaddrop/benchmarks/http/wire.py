"""Raw HTTP/1.1 over asyncio streams: requests prebuilt as bytes, keep-alive, little overhead.

A load generator written on a full client library measures the library; this one does what
wrk does per request: write the bytes, read the status line and headers, read the body.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from time import monotonic
from typing import Any


@dataclass(frozen=True)
class Address:
    """Where a server listens."""

    host: str
    port: int

    @property
    def base_url(self) -> str:
        """`http://host:port`."""
        return f"http://{self.host}:{self.port}"


def get_request(address: Address, path: str, cookie: str | None = None, accept: str = "") -> bytes:
    """A keep-alive GET."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {address.host}:{address.port}"]
    if accept:
        lines.append(f"Accept: {accept}")
    if cookie:
        lines.append(f"Cookie: {cookie}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def json_post(address: Address, path: str, fields: dict[str, Any], cookie: str, csrf: str) -> bytes:
    """A keep-alive POST of JSON with its CSRF header, as the page's script sends."""
    body = json.dumps(fields).encode()
    lines = [
        f"POST {path} HTTP/1.1",
        f"Host: {address.host}:{address.port}",
        "Accept: application/json",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        f"X-CSRFToken: {csrf}",
        f"Cookie: {cookie}",
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


@dataclass(frozen=True)
class Reply:
    """What came back: the status and the body's size in bytes."""

    status: int
    size: int
    body: bytes = b""


class Connection:
    """One keep-alive connection; reconnects when the server closes it."""

    def __init__(self, address: Address, keep_body: bool = False) -> None:
        self.address = address
        self.keep_body = keep_body
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.replies = 0
        """Replies read on the current socket: above 0, the next request reuses it."""
        self.idle_since = monotonic()
        """When the last reply was read (or the connection made)."""

    def closed_by_server(self) -> bool:
        """Whether the server has already closed the open socket (its end seen by our loop)."""
        if self.reader is None or self.writer is None:
            return False
        return self.reader.at_eof() or self.writer.is_closing()

    async def open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """The open streams, connecting first if needed."""
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                self.address.host, self.address.port
            )
        return self.reader, self.writer

    async def send(self, request: bytes) -> Reply:
        """Send one request and read its whole reply."""
        reader, writer = await self.open()
        try:
            writer.write(request)
            status, headers = await read_head(reader)
            body = await read_body(reader, headers, self.keep_body)
        except BaseException:
            self.close()
            raise
        self.replies += 1
        self.idle_since = monotonic()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return Reply(status, body[0], body[1])

    def close(self) -> None:
        """Drop the connection (the next send opens a new one)."""
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None
        self.replies = 0


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """The status code and the headers (names lower-cased) of a reply."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    return status, headers


async def read_body(
    reader: asyncio.StreamReader, headers: dict[str, str], keep: bool
) -> tuple[int, bytes]:
    """Read a reply's body (by length or chunked); its size, and the bytes if `keep`."""
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
        return len(body), body if keep else b""
    if headers.get("transfer-encoding", "").lower() != "chunked":
        return 0, b""
    size, parts = 0, []
    while chunk := await read_chunk(reader):
        size += len(chunk)
        if keep:
            parts.append(chunk)
    return size, b"".join(parts)


async def read_chunk(reader: asyncio.StreamReader) -> bytes:
    """The next chunk of a chunked body; empty at its end (trailers skipped)."""
    line = await reader.readuntil(b"\r\n")
    length = int(line.split(b";", 1)[0], 16)
    if length == 0:
        while (await reader.readuntil(b"\r\n")) != b"\r\n":
            pass
        return b""
    chunk = await reader.readexactly(length)
    await reader.readexactly(2)
    return chunk
