"""What a Station tab GET costs in this process: SQL statements, Python calls, CPU ms.

    PYTHONPATH=src .venv/bin/python tools/page_cost.py [--runs 7] [--posts 30]

A game of six on a new SQLite file (a temporary directory), 30 Floor posts, then for the
Floor and Cable tabs of one player: the page once to warm it, then `--runs` GETs of the same,
unchanged page (first with known pages, then again on a new app that keeps none, so that
every page is made); then "after a post": `--runs` Floor GETs each right after another player's
Floor post, so the page and its chat panel are made afresh (what most GETs of a lively game
cost; the posts go in through the service, spaced to stay within the rate limit); then
"vote": `--runs` votes of one player through the JSON API, each for another seat (S21), with
the functions that took most of a vote's time under cProfile (`--top`); then "post":
`--runs` Floor posts through the JSON API by the other players in turn (the rate limit lifted
while they are measured). Python
calls are cProfile's count for one GET; CPU is `process_time` of a GET without the profiler.
The app runs in this thread (an in-process ASGI client), so the figures include the client's
share of a request, which is small and the same for every page.
Medians of the runs. A benchmark that prints figures: it never fails on a time.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import logging
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from argon2 import PasswordHasher
from litestar import Litestar
from sqlalchemy import event, select
from sqlalchemy.ext.asyncio import AsyncEngine

from deaddrop.engine.station.channels import Channel
from deaddrop.server.accounts import passwords
from deaddrop.server.accounts.models import User
from deaddrop.server.app import create_app
from deaddrop.server.clock import SystemClock
from deaddrop.server.cookies import CSRF_COOKIE
from deaddrop.server.db.engine import create_engine
from deaddrop.server.db.migrate import upgrade_head
from deaddrop.server.settings import Settings
from deaddrop.server.station.chat.channels import do_post
from deaddrop.server.station.chat.rate import CHAT_RATE_KEY, RATE_COUNT, RATE_WINDOW, ChatRate
from deaddrop.server.station.game.access import access_game_for_member, access_game_for_player
from deaddrop.server.station.lobby.service import NewGame, do_create_game, do_join, do_start

SECRET = "page-cost-secret-key-that-is-long-enough-for-hmac"
PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank")
PASSWORD = "correct horse battery"


@contextmanager
def counted(engine: AsyncEngine) -> Iterator[list[int]]:
    """SQL statements sent on `engine` while inside."""
    count = [0]

    def statement(*_args: Any) -> None:
        count[0] += 1

    event.listen(engine.sync_engine, "before_cursor_execute", statement)
    try:
        yield count
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", statement)


def _browser(app: Litestar) -> httpx.AsyncClient:
    """A browser (its own cookies) calling the app in this thread and event loop."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


async def _sign_up(app: Litestar, name: str) -> httpx.AsyncClient:
    client = _browser(app)
    form = await client.get("/signup")
    token = form.text.split('name="_csrf_token" value="', 1)[1].split('"', 1)[0]
    fields = {"username": name, "display_name": name.capitalize(), "password": PASSWORD}
    answer = await client.post(
        "/signup", data={**fields, "password_again": PASSWORD, "_csrf_token": token}
    )
    assert answer.status_code == 303, answer.text
    return client


async def _table(app: Litestar, posts: int) -> str:
    """A started game of six with `posts` Floor posts, made by the service functions."""
    async with app.state.sessionmaker() as db:
        users = [await db.scalar(select(User).where(User.username == n)) for n in PLAYERS]
        game = await do_create_game(db, users[0], NewGame("Page cost", 21 * 60, "Europe/Berlin"))
        for user in users[1:]:
            await do_join(db, game, user)
        host = await access_game_for_member(db, game.public_id, users[0])
        await do_start(db, host, SystemClock())
        now = datetime.now(UTC)
        for number in range(posts):
            user = users[number % len(users)]
            context = await access_game_for_player(db, game.public_id, user)
            await do_post(db, context, Channel.FLOOR, f"post {number} about things", now)
        return game.public_id


async def _measure(app: Litestar, client: httpx.AsyncClient, path: str, runs: int) -> str:
    """Statements, Python calls and CPU ms of an unchanged page, medians of `runs`."""
    for _ in range(3):  # warm: memos filled, the look recorded, the page known
        assert (await client.get(path)).status_code == 200
    statements, calls, cpu = [], [], []
    for _ in range(runs):
        with counted(app.state.engine) as count:
            start = time.process_time()
            answer = await client.get(path)
            cpu.append((time.process_time() - start) * 1000)
        assert answer.status_code == 200
        statements.append(count[0])
        profile = cProfile.Profile()
        profile.enable()
        await client.get(path)
        profile.disable()
        calls.append(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]
    return (
        f"{path.rsplit('/', 1)[1]:6} statements {statistics.median(statements):3.0f}  "
        f"python calls {statistics.median(calls):6.0f}  CPU {statistics.median(cpu):5.2f} ms  "
        f"{len(answer.content) / 1024:.1f} KB"
    )


async def _measure_after_posts(
    app: Litestar, clients: list[httpx.AsyncClient], game_id: str, runs: int
) -> str:
    """Statements and CPU ms of a Floor GET right after another player's post, medians."""
    floor = f"/games/{game_id}/floor"
    async with app.state.sessionmaker() as db:
        posters = [await db.scalar(select(User).where(User.username == n)) for n in PLAYERS[2:]]
    # The posts go in through the service (the page's own post is not measured), each a
    # little later than the last, so that no poster passes the rate limit's window.
    spacing = RATE_WINDOW / RATE_COUNT
    start = datetime.now(UTC) + RATE_WINDOW
    statements, cpu = [], []
    for number in range(runs):
        async with app.state.sessionmaker() as db:
            poster = posters[number % len(posters)]
            context = await access_game_for_player(db, game_id, poster)
            text = f"a post {number} before the GET"
            await do_post(db, context, Channel.FLOOR, text, start + number * spacing)
        with counted(app.state.engine) as count:
            began = time.process_time()
            answer = await clients[1].get(floor)
            cpu.append((time.process_time() - began) * 1000)
        assert answer.status_code == 200
        statements.append(count[0])
    return (
        f"floor after a post  statements {statistics.median(statements):3.0f}  "
        f"CPU {statistics.median(cpu):5.2f} ms  {len(answer.content) / 1024:.1f} KB"
    )


async def _measure_votes(
    app: Litestar, client: httpx.AsyncClient, game_id: str, runs: int, top: int
) -> str:
    """Statements, Python calls and CPU ms of a vote (another seat each time), medians; then
    the `top` functions by their own time over the profiled votes."""
    view = (await client.get(f"/api/games/{game_id}")).json()["view"]
    others = [entry["codename"] for entry in view["roster"]][2:]
    path = f"/api/games/{game_id}/vote"
    headers = {"X-CSRFToken": client.cookies[CSRF_COOKIE], "Accept": "application/json"}

    async def vote(number: int) -> None:
        answer = await client.post(
            path, json={"vote": others[number % len(others)]}, headers=headers
        )
        assert answer.status_code == 200, answer.text

    await vote(0)  # warm
    statements, calls, cpu = [], [], []
    profiles = []
    for number in range(1, runs + 1):
        with counted(app.state.engine) as count:
            start = time.process_time()
            await vote(2 * number)
            cpu.append((time.process_time() - start) * 1000)
        statements.append(count[0])
        profile = cProfile.Profile()
        profile.enable()
        await vote(2 * number + 1)
        profile.disable()
        profiles.append(profile)
        calls.append(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]
    lines = [
        f"vote    statements {statistics.median(statements):3.0f}  "
        f"python calls {statistics.median(calls):6.0f}  CPU {statistics.median(cpu):5.2f} ms"
    ]
    if top:
        lines.append(_top(pstats.Stats(*profiles), top, runs))
    return "\n".join(lines)


async def _measure_posts(
    app: Litestar, clients: list[httpx.AsyncClient], game_id: str, runs: int
) -> str:
    """Statements and CPU ms of a Floor post through the JSON API, medians of `runs` (the
    players in turn). The rate limit is lifted while they are measured (`_rate_lifted`), so
    that a run is not refused for coming fast."""
    path = f"/api/games/{game_id}/chat/floor"
    posters = clients[1:]
    statements, cpu = [], []
    with _rate_lifted(app):
        for number in range(runs + 1):  # the first one warms
            client = posters[number % len(posters)]
            headers = {"X-CSRFToken": client.cookies[CSRF_COOKIE], "Accept": "application/json"}
            with counted(app.state.engine) as count:
                began = time.process_time()
                answer = await client.post(path, json={"text": f"post {number}"}, headers=headers)
                spent = (time.process_time() - began) * 1000
            assert answer.status_code == 200, answer.text
            if number:
                statements.append(count[0])
                cpu.append(spent)
    return (
        f"post    statements {statistics.median(statements):3.0f}  "
        f"CPU {statistics.median(cpu):5.2f} ms"
    )


@contextmanager
def _rate_lifted(app: Litestar) -> Iterator[None]:
    """The app's posting rate limit lifted while inside: its sessions' `ChatRate` counts 0, as
    `CHAT_POSTS_PER_WINDOW=0` sets it (the same statement runs, never refusing)."""
    info = app.state.sessionmaker.kw["info"]
    kept = info.get(CHAT_RATE_KEY)
    info[CHAT_RATE_KEY] = ChatRate(0)
    try:
        yield
    finally:
        info[CHAT_RATE_KEY] = kept


def _top(stats: pstats.Stats, top: int, runs: int) -> str:
    """The project's `top` functions by time in them (callees included), in ms per request."""
    found = stats.stats  # type: ignore[attr-defined]
    ours = [item for item in found.items() if "/deaddrop/" in item[0][0]]
    rows = sorted(ours, key=lambda item: item[1][3], reverse=True)[:top]
    return "\n".join(
        f"  {total * 1000 / runs:6.3f} ms in ({own * 1000 / runs:5.3f} own)  "
        f"{file.split('/deaddrop/', 1)[1]}:{line} {name}"
        for (file, line, name), (_calls, _primitive, own, total, _callers) in rows
    )


async def main(runs: int, posts: int, top: int) -> None:
    """Seed, then print the figures of the Floor and Cable GETs, with known pages (an
    unchanged page sent again after one statement) and without (every page made)."""
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request otherwise
    passwords._hasher = PasswordHasher(time_cost=1, memory_cost=1024)  # seeding, not measured
    for known_pages_mb in (64, 0):
        print("known pages kept" if known_pages_mb else "every page made (KNOWN_PAGES_MB=0)")
        await _one_app(runs, posts, known_pages_mb, top)


async def _one_app(runs: int, posts: int, known_pages_mb: int, top: int) -> None:
    """Seed a new database, then print the figures of one app."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'cost.sqlite3'}"
        settings = Settings(database_url=url, secret_key=SECRET, known_pages_mb=known_pages_mb)
        engine = create_engine(settings)
        await upgrade_head(engine)
        await engine.dispose()
        app = create_app(settings)
        async with app.lifespan():
            clients = [await _sign_up(app, name) for name in PLAYERS]
            game_id = await _table(app, posts)
            for tab in ("floor", "cable"):
                print(await _measure(app, clients[1], f"/games/{game_id}/{tab}", runs))
            print(await _measure_after_posts(app, clients, game_id, runs))
            print(
                await _measure_votes(app, clients[1], game_id, runs, top if known_pages_mb else 0)
            )
            print(await _measure_posts(app, clients, game_id, runs))
            for client in clients:
                await client.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="GETs measured per tab (7)")
    parser.add_argument("--posts", type=int, default=30, help="Floor posts in the game (30)")
    parser.add_argument("--top", type=int, default=25, help="functions shown for a vote (25)")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.runs, arguments.posts, arguments.top))
    sys.exit(0)
