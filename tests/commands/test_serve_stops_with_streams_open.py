"""`deaddrop serve` stops on SIGTERM within seconds, with status 0, while live streams are open
(a Station Floor and a Cards table): every stream ends, and browsers reconnect with
Last-Event-ID to whichever process serves next. A real process on its own SQLite file."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from deaddrop.server.security_headers import HEADERS
from tests.e2e.harness import wait_until_serving
from tests.server.live.test_live_two_processes import NAMES, Player, start_game
from tests.server.visitor import csrf_token_in

STOP_WITHIN = 10.0
"""Seconds the process may take to exit after SIGTERM (it waits 5 s at most for requests in
flight; the rest is a loaded machine's slack)."""
SECURITY_HEADERS = tuple(name.lower() for name in HEADERS)
_TABLE = re.compile(r"/cards/t/([A-Za-z0-9_-]+)")


@contextmanager
def serve(var_dir: Path) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """`deaddrop serve` on a free port with its own SQLite file; killed if still running."""
    env = {**os.environ, "DEADDROP_VAR_DIR": str(var_dir), "SMTP_HOST": ""}
    for name in ("DATABASE_URL", "REDIS_URL", "DEADDROP_TEST_CLOCK_FILE"):
        env.pop(name, None)
    log_path = var_dir / "server.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "deaddrop.cli", "serve", "--port", "0"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            base = wait_until_serving(process, log_path)
            yield base, process, log_path
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


async def _open(http: httpx.AsyncClient, url: str) -> tuple[asyncio.Task[str], asyncio.Event]:
    """Open a live stream as the page's script does; returns its reader and "connected"."""
    connected = asyncio.Event()

    async def read() -> str:
        timeout = httpx.Timeout(STOP_WITHIN, read=None)
        headers = {"Accept": "text/event-stream"}
        async with http.stream("GET", url, headers=headers, timeout=timeout) as response:
            assert response.status_code == 200, url
            # A stream is a response like any other: it carries the security headers too.
            for header in SECURITY_HEADERS:
                assert header in response.headers, (url, header)
            async for line in response.aiter_lines():
                if line == ": connected":
                    connected.set()
        return "ended"

    task = asyncio.create_task(read())
    waiter = asyncio.create_task(connected.wait())
    await asyncio.wait([task, waiter], timeout=STOP_WITHIN, return_when=asyncio.FIRST_COMPLETED)
    waiter.cancel()
    assert connected.is_set(), f"{url}: not connected ({task})"
    return task, connected


async def _cards_table(http: httpx.AsyncClient, base: str) -> str:
    """A guest's one-click table against bots; its events URL."""
    lobby = await http.get(f"{base}/cards")
    answer = await http.post(
        f"{base}/cards/solo",
        data={"_csrf_token": csrf_token_in(lobby.text)},
        follow_redirects=True,
    )
    found = _TABLE.search(str(answer.url))
    assert answer.status_code == 200 and found is not None, answer.text
    return f"{base}/cards/t/{found.group(1)}/events"


def test_sigterm_ends_open_streams_and_the_process_exits_0(tmp_path: Path) -> None:
    with serve(tmp_path) as (base, process, log):

        async def scenario() -> tuple[list[str], float, int]:
            clients = [httpx.AsyncClient(timeout=STOP_WITHIN) for _ in NAMES]
            guest = httpx.AsyncClient(timeout=STOP_WITHIN)
            try:
                players = [Player(n, c) for n, c in zip(NAMES, clients, strict=True)]
                game = await start_game(players, base, base)
                floor = base + game.path("events") + "?tab=floor"
                streams = [
                    (await _open(game.seats[0].http, floor))[0],
                    (await _open(game.seats[1].http, base + game.path("events")))[0],
                    (await _open(guest, await _cards_table(guest, base)))[0],
                ]
                began = time.monotonic()
                process.send_signal(signal.SIGTERM)
                status = await asyncio.to_thread(process.wait, STOP_WITHIN)
                took = time.monotonic() - began
                done, _ = await asyncio.wait(streams, timeout=STOP_WITHIN)
                assert len(done) == len(streams)
                return [task.result() for task in streams], took, status
            finally:
                for client in [*clients, guest]:
                    await client.aclose()

        try:
            ended, took, status = asyncio.run(scenario())
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {STOP_WITHIN} s after SIGTERM:\n{log.read_text()}")
        assert status == 0, log.read_text()
        assert took < STOP_WITHIN
        assert ended == ["ended", "ended", "ended"]
        # The streams ended because the server asked them to, not at the cut-off.
        assert "timeout graceful shutdown exceeded" not in log.read_text()
