"""Two real `deaddrop serve` processes on one database and one Redis deliver each other's live
events: a post through one reaches the pages open on the other, whispers keep their audience
across processes, and a page that reconnects to the other process with Last-Event-ID gets
exactly what it missed.

Redis comes from TEST_REDIS_URL (unset or unreachable: skip; under CI=true: fail); the database
is this test's own SQLite file or PostgreSQL schema (tests/server/conftest.py). Everything goes
through HTTP as a browser does it: sign-up, lobby, start, the JSON API and the SSE streams.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.harness import wait_until_serving
from tests.server.conftest import SECRET, Database
from tests.server.visitor import PASSWORD, csrf_token_in

WAIT = 10.0
"""Seconds any one push, page or process may take before the test gives up."""
NAMES = ("hilda", "ivan", "jana", "karl", "lena", "milo")
_LIVE_AFTER = re.compile(r'data-live-after="(\d+)"')
_INVITE = re.compile(r"/join/([A-Za-z0-9_-]+)")


@contextmanager
def serving(var_dir: Path, env: dict[str, str]) -> Iterator[str]:
    """`deaddrop serve` on a free port with exactly this configuration; yields its base URL.

    Like tests/e2e/harness.py's `running_server`, which always serves its own SQLite file: here
    DATABASE_URL (and DATABASE_SCHEMA) must reach the process, so that both share one database.
    """
    var_dir.mkdir(parents=True)
    log_path = var_dir / "server.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "deaddrop.cli", "serve", "--port", "0"],
            env={**os.environ, "DEADDROP_VAR_DIR": str(var_dir), **env},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            base = wait_until_serving(process, log_path)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def servers(redis_url: str, database: Database, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Processes A and B: one database (migrated already), one Redis, one secret key."""
    env = {
        "DATABASE_URL": database.url,
        "DATABASE_SCHEMA": database.schema or "",
        "REDIS_URL": redis_url,
        "SECRET_KEY": SECRET,  # sessions and CSRF tokens of one process are good on the other
        "SMTP_HOST": "",
        "DEADDROP_TEST_CLOCK_FILE": "",
    }
    with ExitStack() as stack:
        # One after the other: A is up (its migration step done) before B starts.
        a = stack.enter_context(serving(tmp_path / "a", env))
        b = stack.enter_context(serving(tmp_path / "b", env))
        yield a, b


# --- People in browsers -------------------------------------------------------------------


@dataclass
class Player:
    """One browser. Cookies do not depend on the port, so like a real browser it carries the
    same session to both processes (both run on 127.0.0.1): each must find it in the DB."""

    name: str
    http: httpx.AsyncClient
    seat: int = -1

    async def page(self, url: str) -> str:
        """GET a page, following redirects; it must be there."""
        response = await self.http.get(url, follow_redirects=True)
        assert response.status_code == 200, f"{url}: {response.status_code} {response.text}"
        return response.text

    async def submit(self, page: str, action: str, fields: dict[str, str]) -> httpx.Response:
        """Open `page`, post `fields` to `action` with its form's CSRF token, follow the answer."""
        token = csrf_token_in(await self.page(page))
        response = await self.http.post(
            action, data={**fields, "_csrf_token": token}, follow_redirects=True
        )
        assert response.status_code == 200, f"{action}: {response.status_code} {response.text}"
        return response

    async def api(self, page: str, action: str, payload: dict[str, str]) -> dict[str, Any]:
        """POST JSON as the page's script does (header `x-csrftoken` from the page)."""
        token = csrf_token_in(await self.page(page))
        response = await self.http.post(action, json=payload, headers={"x-csrftoken": token})
        assert response.status_code == 200, f"{action}: {response.status_code} {response.text}"
        answer: dict[str, Any] = response.json()
        return answer


@dataclass
class Game:
    """A started game of six, seen from outside."""

    game_id: str
    seats: list[Player]
    """seats[i] is the player holding seat i."""
    codenames: list[str]

    def path(self, tail: str) -> str:
        """A path under the game."""
        return f"/games/{self.game_id}/{tail}"

    async def post(self, base: str, seat: int, text: str) -> int:
        """Post to the Floor through the process at `base`; the poster's cursor after it (its
        own count of the events it may see: each reader counts its own)."""
        answer = await self.seats[seat].api(
            base + self.path("floor"),
            f"{base}/api{self.path('chat/floor')}",
            {"text": text},
        )
        seq: int = answer["seq"]
        return seq

    async def whisper(self, base: str, seat: int, to: int, text: str) -> None:
        """Whisper through the process at `base`."""
        await self.seats[seat].api(
            base + self.path("dossier"),
            f"{base}/api{self.path('whisper')}",
            {"recipient": self.codenames[to], "text": text},
        )

    def announced(self, sender: int, recipient: int) -> str:
        """How the Floor shows a whisper to everyone (S31): who to whom, never the text."""
        return (
            f'{self.codenames[sender]}</span> whispered to <span class="codename">'
            f"{self.codenames[recipient]}"
        )


async def sign_up(player: Player, base: str) -> None:
    """Through the sign-up form; logged in afterwards."""
    await player.submit(
        f"{base}/signup",
        f"{base}/signup",
        {
            "username": player.name,
            "display_name": player.name.capitalize(),
            "password": PASSWORD,
            "password_again": PASSWORD,
        },
    )


async def start_game(players: list[Player], a: str, b: str) -> Game:
    """Signed up, created, joined and started through the lobby's forms, on both processes."""
    bases = (a, b)
    for index, player in enumerate(players):
        await sign_up(player, bases[index % 2])
    host = players[0]
    lobby = await host.submit(
        f"{a}/games/new",
        f"{a}/games/new",
        {"title": "Two Stations", "pouch_time": "21:00", "time_zone": "UTC", "day_minutes": "1440"},
    )
    game_id = lobby.url.path.split("/")[2]
    assert lobby.url.path == f"/games/{game_id}/lobby"
    invite = _INVITE.search(lobby.text)
    assert invite is not None, lobby.text
    for index, player in enumerate(players[1:], start=1):
        join = f"{bases[index % 2]}/join/{invite.group(1)}"
        assert "You joined" in (await player.submit(join, join, {})).text
    started = await host.submit(f"{b}/games/{game_id}/lobby", f"{b}/games/{game_id}/start", {})
    assert started.url.path == f"/games/{game_id}/cable"
    codenames: list[str] = []
    for player in players:
        response = await player.http.get(f"{a}/api/games/{game_id}")
        assert response.status_code == 200, response.text
        info = response.json()["game"]
        player.seat = info["seat"]
        codenames = [seat["codename"] for seat in info["seats"]]
    seats = sorted(players, key=lambda player: player.seat)
    assert [player.seat for player in seats] == list(range(6))
    return Game(game_id, seats, codenames)


# --- An open page's stream ----------------------------------------------------------------


@dataclass(frozen=True)
class Push:
    """One push: its id (the reader's cursor) and the HTML it brought (a `page` event's live
    part, an `append` event's new message, a `region` event's region of the Floor; nothing for
    a badge or the cursor alone)."""

    id: int
    html: str


@dataclass
class Listener:
    """What one open page's EventSource has received so far."""

    url: str
    path: str
    """The stream's path and query: a reconnecting browser asks for the same."""
    inbox: asyncio.Queue[Push | str | BaseException] = field(default_factory=asyncio.Queue)
    pushes: list[Push] = field(default_factory=list)

    async def _next(self) -> Push | str:
        try:
            item = await asyncio.wait_for(self.inbox.get(), WAIT)
        except TimeoutError:
            raise AssertionError(
                f"{self.url}: nothing within {WAIT} s after {[p.id for p in self.pushes]}"
            ) from None
        if isinstance(item, BaseException):
            raise AssertionError(f"{self.url}: the stream failed or ended: {item!r}")
        if isinstance(item, Push):
            self.pushes.append(item)
        return item

    async def connected(self) -> None:
        """Wait for the stream's first message: it has subscribed to the game's wake-ups."""
        assert await self._next() == "connected"

    async def next(self) -> Push:
        """The next push."""
        item = await self._next()
        assert isinstance(item, Push), item
        return item

    async def until_text(self, text: str) -> list[Push]:
        """Pushes up to the first that shows `text`."""
        got = [await self.next()]
        while text not in got[-1].html:
            got.append(await self.next())
        return got


async def _read(
    http: httpx.AsyncClient, url: str, headers: dict[str, str], inbox: asyncio.Queue[Any]
) -> None:
    """Parse the SSE stream into the inbox: each push, and the `connected` comment."""
    try:
        timeout = httpx.Timeout(WAIT, read=None)  # quiet streams are fine; waits time out above
        async with http.stream("GET", url, headers=headers, timeout=timeout) as response:
            if response.status_code != 200:
                await response.aread()
                raise AssertionError(f"status {response.status_code}: {response.text}")
            event, ident = "", ""
            comments: list[str] = []
            data: list[str] = []
            async for line in response.aiter_lines():
                if line:
                    name, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if name == "":
                        comments.append(value)
                    elif name == "event":
                        event = value
                    elif name == "id":
                        ident = value
                    elif name == "data":
                        data.append(value)
                    continue
                if event == "page":
                    await inbox.put(Push(int(ident), "\n".join(data)))
                elif event in ("append", "region", "badge", "cursor"):  # what changed
                    changed = event in ("append", "region")  # a message, a Floor region
                    what = json.loads("\n".join(data)) if changed else {}
                    await inbox.put(Push(int(ident), what.get("html", "")))
                elif "connected" in comments:
                    await inbox.put("connected")
                event, ident, comments, data = "", "", [], []
        raise AssertionError("the server ended the stream")
    except asyncio.CancelledError:
        raise
    except BaseException as error:  # handed to the test, which waits on the inbox
        await inbox.put(error)


@asynccontextmanager
async def listening(
    player: Player, base: str, game: Game, tab: str, *, resume: Listener | None = None
) -> AsyncIterator[Listener]:
    """Open a tab on the process at `base` and its live stream as the page's script does, with
    `?after=<data-live-after>`. With `resume`: that dropped stream's browser reconnecting, here
    to the process at `base` (the same path and query, and Last-Event-ID: its last push)."""
    headers = {"Accept": "text/event-stream"}
    if resume is None:
        page = await player.page(base + game.path(tab))
        found = _LIVE_AFTER.search(page)
        assert found is not None, page
        path = f"{game.path('events')}?tab={tab}&after={found.group(1)}"
    else:
        path = resume.path
        headers["Last-Event-ID"] = str(resume.pushes[-1].id)
    listener = Listener(base + path, path)
    task = asyncio.create_task(_read(player.http, listener.url, headers, listener.inbox))
    try:
        await listener.connected()
        yield listener
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def texts(pushes: list[Push]) -> str:
    """Everything those pushes showed."""
    return "\n".join(push.html for push in pushes)


# --- The test -----------------------------------------------------------------------------


async def test_two_server_processes_deliver_each_others_live_events(
    servers: tuple[str, str],
) -> None:
    a, b = servers
    clients = [httpx.AsyncClient(timeout=WAIT) for _ in NAMES]
    try:
        game = await start_game([Player(n, c) for n, c in zip(NAMES, clients, strict=True)], a, b)
        await floor_both_ways(game, a, b)
        await whispers_keep_their_audience(game, a, b)
        await reconnect_to_the_other_process(game, a, b)
    finally:
        for client in clients:
            await client.aclose()


async def floor_both_ways(game: Game, a: str, b: str) -> None:
    """A post through one process reaches a page open on the other, each way round. Once a
    stream has caught up it reads the journal only when woken, and the writer's process wakes
    through Redis alone: the second push of each pair can have come no other way."""
    ways = (("B", b, "A", a, 1, 2), ("A", a, "B", b, 3, 4))
    for on, stream_on, through, post_through, reader, writer in ways:
        async with listening(game.seats[reader], stream_on, game, "floor") as page:
            for n in (1, 2):
                text = f"FLOOR{n}THROUGH{through}TO{on}"
                await game.post(post_through, writer, text)
                [push] = await page.until_text(text)  # one push per post, nothing else
                assert n == 1 or push.id == page.pushes[-2].id + 1


async def whispers_keep_their_audience(game: Game, a: str, b: str) -> None:
    """A whisper through A: its recipient's Dossier on B shows the text; a third player's Floor
    on B shows only who whispered to whom: its push stops at the announcement (S31)."""
    sender, recipient, third = 5, 1, 2
    secret = "WHISPERSECRETATOB"
    async with (
        listening(game.seats[recipient], b, game, "dossier") as dossier,
        listening(game.seats[third], b, game, "floor") as floor,
    ):
        await game.whisper(a, sender, recipient, secret)
        assert len(await dossier.until_text(secret)) == 1  # the announcement and the text at once
        [announced] = await floor.until_text(game.announced(sender, recipient))
        # The announcement is journaled just before the text: the floor stops there, and its
        # count (its ids) never includes the text it may not read.
        # The announcement came as the Floor's region, the same for every reader; a later
        # push brings the next post: the text is still nowhere.
        await game.post(a, 3, "FLOORAFTERWHISPER")
        later = await floor.until_text("FLOORAFTERWHISPER")
        assert [push.id for push in later] == [announced.id + 1]
        assert secret not in texts(floor.pushes)


async def reconnect_to_the_other_process(game: Game, a: str, b: str) -> None:
    """A Floor open on B drops; meanwhile events come through both processes; its browser
    reconnects to A with Last-Event-ID and gets exactly what it missed, then live events."""
    reader = 4
    async with listening(game.seats[reader], b, game, "floor") as dropped:
        await game.post(a, 0, "BEFOREDROP")
        [push] = await dropped.until_text("BEFOREDROP")
    # Missed while away: a post through B, a whisper between others through A, a post through A.
    await game.post(b, 2, "MISSEDTHROUGHB")
    await game.whisper(a, 0, 3, "MISSEDWHISPERSECRET")
    await game.post(a, 3, "MISSEDTHROUGHA")
    async with listening(game.seats[reader], a, game, "floor", resume=dropped) as page:
        # One batch, all it missed: the two posts appended, then the whisper's announcement
        # (the Floor's region), each push numbered with the cursor after the batch; the
        # whisper's text is not the reader's.
        caught = await page.until_text(game.announced(0, 3))
        caught_up = caught[-1]
        assert [p.id for p in caught] == [push.id + 3] * 3
        assert "MISSEDTHROUGHB" in caught[0].html
        assert "MISSEDTHROUGHA" in caught[1].html
        assert "MISSEDWHISPERSECRET" not in texts(caught)
        # Nothing replayed twice, nothing more: the next push is the next post, through B.
        await game.post(b, 5, "AFTERRECONNECT")
        assert [p.id for p in await page.until_text("AFTERRECONNECT")] == [caught_up.id + 1]
        assert [p.id for p in page.pushes] == [caught_up.id] * 3 + [caught_up.id + 1]
    # Back to B, having missed nothing: the header, not the URL's older `after`, decides.
    async with listening(game.seats[reader], b, game, "floor", resume=page) as again:
        await game.post(a, 1, "NOTHINGMISSED")
        final = page.pushes[-1].id + 1
        assert [push.id for push in await again.until_text("NOTHINGMISSED")] == [final]
        assert "NOTHINGMISSED" in again.pushes[0].html
