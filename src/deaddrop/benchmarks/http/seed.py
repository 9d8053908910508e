"""Seed the measured world through the app itself: accounts, games, Floor posts and votes.

Accounts are rows with one real argon2 hash (the product's parameters) shared by all, since
a hash per account would cost the seeding a core-second each; everything else goes through
the app's pages and API as players make it (create, join by invite, start, post, vote).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from litestar.testing import AsyncTestClient
from sqlalchemy import text

from deaddrop.benchmarks.http.browser import Browser, SeedFailed, seeding_app
from deaddrop.benchmarks.http.world import Player, World
from deaddrop.server.accounts.models import User
from deaddrop.server.accounts.passwords import hash_password
from deaddrop.server.app import create_app
from deaddrop.server.db.engine import create_engine, create_sessionmaker
from deaddrop.server.db.migrate import upgrade_head
from deaddrop.server.settings import Settings

BENCH_PASSWORD = "bench: correct horse battery staple"
_INVITE = re.compile(r'value="http://[^"]*/join/([^"]+)"')
_LOBBY = re.compile(r"/games/([^/]+)/lobby")
Say = Callable[[str], None]


@dataclass(frozen=True)
class Sizes:
    """How big the world is (issue 15: 200 games of 10, 30 posts and 5 votes each)."""

    games: int = 200
    players: int = 10
    posts: int = 30
    votes: int = 5


async def migrate(settings: Settings) -> None:
    """Bring the (new) database to the newest revision."""
    engine = create_engine(settings)
    try:
        await upgrade_head(engine)
    finally:
        await engine.dispose()


async def seed_world(settings: Settings, sizes: Sizes, say: Say = print) -> World:
    """Migrate, then make `sizes.games` started games with their posts and votes."""
    await migrate(settings)
    names = await create_accounts(settings, sizes.games * sizes.players)
    app = seeding_app(create_app(settings, pouch_runner=False, mailer=False))
    games: dict[str, list[Player]] = {}
    async with AsyncTestClient(app) as client:
        for number in range(sizes.games):
            people = [Browser(client) for _ in range(sizes.players)]
            chunk = names[number * sizes.players : (number + 1) * sizes.players]
            for browser, name in zip(people, chunk, strict=True):
                await browser.log_in(name)
            seats = await seed_game(people, sizes, f"Operation {number + 1}")
            games[seats[0].game_id] = seats
            if (number + 1) % 20 == 0:
                say(f"  seeded {number + 1}/{sizes.games} games")
    await analyze(settings)
    return World(settings.database_url, settings.secret_key, games)


async def analyze(settings: Settings) -> None:
    """On PostgreSQL, the planner's statistics of the new tables, as autovacuum gives a live
    database within a minute (it is off on some machines; without them every run measured
    plans made blind). SQLite gathers none by itself: left as the product leaves it."""
    if settings.database_url.startswith("sqlite"):
        return
    engine = create_engine(settings)
    try:
        async with engine.connect() as connection:
            # The run's own schema (its search path) alone: the database may hold others.
            found = await connection.execute(
                text("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
            )
            for (table,) in found.all():
                await connection.execute(text(f'ANALYZE "{table}"'))
    finally:
        await engine.dispose()


async def create_accounts(settings: Settings, count: int, prefix: str = "bench") -> list[str]:
    """`count` accounts sharing one password; returns their usernames.

    Through an engine of its own: the test client serves the app in a loop of its own, and a
    pooled connection belongs to the loop that opened it.
    """
    password_hash = await hash_password(BENCH_PASSWORD)
    names = [f"{prefix}{number:05d}" for number in range(count)]
    engine = create_engine(settings)
    try:
        async with create_sessionmaker(engine)() as db:
            db.add_all(
                User(username=name, display_name=f"Agent {name[-5:]}", password_hash=password_hash)
                for name in names
            )
            await db.commit()
    finally:
        await engine.dispose()
    return names


async def seed_game(people: list[Browser], sizes: Sizes, title: str) -> list[Player]:
    """One game: the first person hosts, the others join; started; posts and votes made."""
    game_id = await start_game(people, title)
    host = people[0]
    view = (await host.get(f"/api/games/{game_id}")).json()["view"]
    codenames = [entry["codename"] for entry in view["roster"]]
    for number in range(sizes.posts):
        author = people[number % len(people)]
        text = f"Floor post {number + 1}: who was at the fountain at noon?"
        await author.script(f"/api/games/{game_id}/chat/floor", {"text": text})
    for number in range(sizes.votes):
        target = codenames[(number + 1) % len(people)]
        await people[number % len(people)].script(f"/api/games/{game_id}/vote", {"vote": target})
    for person in people:  # each has seen the Floor since (the join flashes are shown)
        await person.get(f"/games/{game_id}/floor")
    return [
        Player(game_id, seat, codenames[seat], person.session, person.csrf)
        for seat, person in enumerate(people)
    ]


async def start_game(people: list[Browser], title: str) -> str:
    """Create a lobby, join everyone through its invite, start; returns the public id."""
    host = people[0]
    fields = {
        "title": title,
        "pouch_time": far_pouch_time(datetime.now(UTC)),
        "time_zone": "UTC",
        "day_minutes": "1440",
    }
    created = await host.form("/games/new", fields)
    found = _LOBBY.fullmatch(created.headers["location"])
    if found is None:
        raise SeedFailed(f"creating a game went to {created.headers['location']}")
    game_id = found.group(1)
    invite = _INVITE.search((await host.get(f"/games/{game_id}/lobby")).text)
    if invite is None:
        raise SeedFailed("the lobby page shows no invite link")
    for person in people[1:]:
        await person.form(f"/join/{invite.group(1)}", {})
    await host.form(f"/games/{game_id}/start", {})
    return game_id


def far_pouch_time(now: datetime) -> str:
    """A Pouch time half a day away, so that no Pouch leaves while the load runs."""
    at = now + timedelta(hours=12)
    return f"{at.hour:02d}:{at.minute:02d}"
