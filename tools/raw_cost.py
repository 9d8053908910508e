"""What a save and a made page cost in this process, the app called over raw ASGI (no client).

    PYTHONPATH=src .venv/bin/python tools/raw_cost.py [--rounds 6] [--per-round 100]

The same game as `tools/page_cost.py` (six players, 30 Floor posts, SQLite in a temporary
directory), then: rounds of `--per-round` JSON votes by one player (each for another seat),
rounds of 10 and of 20 such votes sent at once (queued on the game's writer lock), rounds of
JSON Floor posts by the same player (the rate limit lifted while they are measured), and
`--per-round` Floor pages of that player each made right after another player's post (the post
through the service, not measured). The requests are handed to the app as ASGI calls, so
the CPU (`process_time`, every thread of the process) is the app's alone, without an HTTP
client's share: the figure to compare two versions of the code by, run in turn. Medians of the
rounds (a page's: of every page). A benchmark that prints figures: it never fails on a time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from litestar import Litestar
from page_cost import PLAYERS, SECRET, _rate_lifted, _sign_up, _table
from sqlalchemy import select

from deaddrop.engine.station.channels import Channel
from deaddrop.server.accounts import passwords
from deaddrop.server.accounts.models import User
from deaddrop.server.app import create_app
from deaddrop.server.cookies import CSRF_COOKIE
from deaddrop.server.db.engine import create_engine
from deaddrop.server.db.migrate import upgrade_head
from deaddrop.server.settings import Settings
from deaddrop.server.station.chat.channels import do_post
from deaddrop.server.station.game.access import access_game_for_player


async def asgi_call(
    app: Litestar, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, bytes]:
    """One request handed to the app as ASGI: its status and body."""
    raw = [(name.lower().encode(), value.encode()) for name, value in headers.items()]
    raw.append((b"host", b"testserver"))
    if body:
        raw += [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": raw,
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
        "state": {},
    }
    parts: list[bytes] = [body]
    answer: dict[str, Any] = {"status": 0, "body": b""}

    async def receive() -> dict[str, Any]:
        if parts:
            return {"type": "http.request", "body": parts.pop(), "more_body": False}
        await asyncio.Event().wait()  # the client never goes away
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await app(scope, receive, send)  # type: ignore[arg-type]
    return answer["status"], answer["body"]


async def _rounds(rounds: int, per_round: int, request: Any) -> str:
    """CPU ms per request of `rounds` rounds of `per_round` requests, the median and each."""
    for number in range(20):  # warm
        await request(number)
    spent = []
    for _ in range(rounds):
        began = time.process_time()
        for number in range(per_round):
            await request(number)
        spent.append((time.process_time() - began) * 1000 / per_round)
    each = " ".join(f"{value:.3f}" for value in spent)
    return f"{statistics.median(spent):.3f} ms  (rounds: {each})"


Request = Callable[[int], Awaitable[None]]
"""The `number`th request of a kind, answered 200 (or an AssertionError)."""


@dataclass(frozen=True)
class Saves:
    """One player's JSON saves in the measured game, and what its pages need."""

    game_id: str
    cookies: str
    vote: Request
    """A vote for another seat in turn (S21)."""
    post: Request
    """A Floor post (the rate limit must be lifted while they are sent: `_rate_lifted`)."""


async def saves_of(app: Litestar) -> Saves:
    """Six accounts, the game of `_table` with 30 Floor posts, and one player's saves in it."""
    clients = [await _sign_up(app, name) for name in PLAYERS]
    game_id = await _table(app, 30)
    player = clients[1]
    cookies = "; ".join(f"{name}={value}" for name, value in player.cookies.items())
    headers = {"cookie": cookies, "accept": "application/json"}
    posting = {**headers, "x-csrftoken": player.cookies[CSRF_COOKIE]}
    view = json.loads((await asgi_call(app, "GET", f"/api/games/{game_id}", headers))[1])
    others = [entry["codename"] for entry in view["view"]["roster"]][2:]

    async def vote(number: int) -> None:
        body = json.dumps({"vote": others[number % len(others)]}).encode()
        status, text = await asgi_call(app, "POST", f"/api/games/{game_id}/vote", posting, body)
        assert status == 200, text

    async def post(number: int) -> None:
        body = json.dumps({"text": f"message {number} of the day"}).encode()
        path = f"/api/games/{game_id}/chat/floor"
        status, text = await asgi_call(app, "POST", path, posting, body)
        assert status == 200, text

    return Saves(game_id, cookies, vote, post)


async def _together(rounds: int, width: int, request: Request) -> str:
    """CPU ms per request of `rounds` rounds of `width` requests sent at once, the median and
    each round's (they queue on the game's writer lock)."""
    sent = 0
    spent = []
    for _ in range(rounds):
        began = time.process_time()
        await asyncio.gather(*(request(sent + number) for number in range(width)))
        sent += width
        spent.append((time.process_time() - began) * 1000 / width)
    each = " ".join(f"{value:.2f}" for value in spent)
    return f"{statistics.median(spent):.3f} ms  (rounds: {each})"


async def _measure(app: Litestar, rounds: int, per_round: int) -> None:
    saves = await saves_of(app)
    print(f"vote  {await _rounds(rounds, per_round, saves.vote)}")
    for width in (10, 20):
        print(f"{width} votes at once  {await _together(rounds, width, saves.vote)}")
    with _rate_lifted(app):
        print(f"post  {await _rounds(rounds, per_round, saves.post)}")
    pages = await _pages_after_posts(app, saves.game_id, saves.cookies, per_round)
    print(f"page made after a post  {pages}")


async def _pages_after_posts(app: Litestar, game_id: str, cookies: str, count: int) -> str:
    """CPU ms of the player's Floor page right after another player's post, the median."""
    async with app.state.sessionmaker() as db:
        posters = [await db.scalar(select(User).where(User.username == n)) for n in PLAYERS[2:]]
    spent = []
    with _rate_lifted(app):
        for number in range(count + 20):
            async with app.state.sessionmaker() as db:
                poster = posters[number % len(posters)]
                context = await access_game_for_player(db, game_id, poster)
                now = datetime.now(UTC)
                await do_post(db, context, Channel.FLOOR, f"a post {number} before it", now)
            began = time.process_time()
            status, _ = await asgi_call(app, "GET", f"/games/{game_id}/floor", {"cookie": cookies})
            spent.append((time.process_time() - began) * 1000)
            assert status == 200
    return f"{statistics.median(spent[20:]):.3f} ms  ({count} pages)"


async def main(rounds: int, per_round: int) -> None:
    """Seed a new database, then print the figures."""
    async with measured_app() as app:
        await _measure(app, rounds, per_round)


@asynccontextmanager
async def measured_app(*, runners: bool = True) -> AsyncIterator[Litestar]:
    """The app on a new SQLite file in a temporary directory, migrated, its lifespan entered;
    without `runners`, no Pouch runner or bot runner (their passes come by the clock, and a
    slowed run meets more of them)."""
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    passwords._hasher = PasswordHasher(time_cost=1, memory_cost=1024)  # seeding, not measured
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'cost.sqlite3'}"
        settings = Settings(database_url=url, secret_key=SECRET)
        engine = create_engine(settings)
        await upgrade_head(engine)
        await engine.dispose()
        app = create_app(settings, pouch_runner=runners, bot_runner=runners)
        async with app.lifespan():
            yield app


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6, help="rounds of votes, of posts (6)")
    parser.add_argument("--per-round", type=int, default=100, help="requests a round (100)")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.rounds, arguments.per_round))
