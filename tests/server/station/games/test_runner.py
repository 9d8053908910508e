"""The Pouch runner on a manual clock: exactly once per (game, day), whatever happens."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.accounts.models import User
from deaddrop.server.app import create_app
from deaddrop.server.db.engine import create_engine, create_sessionmaker
from deaddrop.server.settings import Settings
from deaddrop.server.station.game.access import access_game_for_member
from deaddrop.server.station.game.models import StationGame, StationPouch
from deaddrop.server.station.lobby.service import NewGame, do_create_game, do_join, do_start
from deaddrop.server.station.play.pouch_runner import PouchRunner
from deaddrop.server.testing.clocks import ManualClock
from tests.server.station.games.conftest import START
from tests.server.station.games.helpers import Person, RunDB, Table, game_row, open_table


async def _pouches(db: AsyncSession, game_id: int | None = None) -> list[StationPouch]:
    query = select(StationPouch).order_by(StationPouch.game_id, StationPouch.day)
    if game_id is not None:
        query = query.where(StationPouch.game_id == game_id)
    return list(await db.scalars(query))


def pouches(table: Table) -> list[StationPouch]:
    """The Pouch records of the table's game."""

    async def read(db: AsyncSession) -> list[StationPouch]:
        return await _pouches(db, (await game_row(db, table.game_id)).id)

    result: list[StationPouch] = table.run_db(read)
    return result


async def quick_games(db: AsyncSession, count: int, clock: ManualClock, tag: str) -> list[str]:
    """`count` started games of six, made straight through the service (no browsers)."""
    users = [User(username=f"{tag}{i}", display_name=f"P{i}", password_hash="-") for i in range(6)]
    db.add_all(users)
    await db.commit()
    ids = []
    for number in range(count):
        game = await do_create_game(
            db, users[0], NewGame(f"Game {number}", 21 * 60, "Europe/Berlin")
        )
        for user in users[1:]:
            await do_join(db, game, user)
        await do_start(db, await access_game_for_member(db, game.public_id, users[0]), clock)
        ids.append(game.public_id)
    return ids


def test_the_pouch_leaves_once_at_the_deadline_and_day_two_follows_summer_time(
    table: Table,
) -> None:
    first = table.deadline()
    assert first == datetime(2026, 3, 28, 20, 0, tzinfo=UTC)  # 21:00 CET
    table.clock.set(first - timedelta(seconds=1))
    assert table.run() == 0
    table.clock.set(first)
    assert table.run() == 1
    assert table.run() == 0
    game = table.game()
    assert game.day == 2 and game.version == 1 and game.table_version == 1
    # Berlin moves to summer time that night: Day 2 is 23 hours, still 21:00 on the wall.
    assert game.deadline == datetime(2026, 3, 29, 19, 0, tzinfo=UTC)
    [record] = pouches(table)
    assert (record.day, record.seq, record.deadline, record.early) == (1, 1, first, False)
    cables = table.people[1].get(table.api()).json()["view"]["cables"]
    assert [cable["day"] for cable in cables] == [1]


def test_missed_days_after_downtime_resolve_in_order_exactly_once(table: Table) -> None:
    table.clock.set(datetime(2026, 3, 30, 20, 0, tzinfo=UTC))  # three deadlines have passed
    assert table.run() == 3
    assert table.run() == 0
    records = pouches(table)
    assert [(r.day, r.seq) for r in records] == [(1, 1), (2, 2), (3, 3)]
    assert [r.deadline for r in records] == [
        datetime(2026, 3, 28, 20, 0, tzinfo=UTC),
        datetime(2026, 3, 29, 19, 0, tzinfo=UTC),
        datetime(2026, 3, 30, 19, 0, tzinfo=UTC),
    ]
    assert table.state().day == 4
    assert table.deadline() == datetime(2026, 3, 31, 19, 0, tzinfo=UTC)


def test_a_crash_between_claim_and_commit_leaves_the_day_to_the_next_runner(
    table: Table,
) -> None:
    async def crash(game: StationGame, day: int) -> None:
        raise RuntimeError("power cut")

    table.clock.set(table.deadline())
    assert table.run(table.runner(before_commit=crash, name="doomed")) == 0
    assert pouches(table) == []
    assert table.game().version == 0 and table.state().day == 1
    assert table.run(table.runner(name="survivor")) == 1
    [record] = pouches(table)
    assert record.runner == "survivor" and record.day == 1


def test_several_runners_at_once_resolve_each_game_and_day_exactly_once(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar], settings: Settings
) -> None:
    ids = run_db(lambda db: quick_games(db, 4, clock, "multi"))
    clock.set(datetime(2026, 3, 29, 20, 0, tzinfo=UTC))  # days 1 and 2 of every game are due

    async def race() -> list[int]:
        # Separate engines, as separate processes would have.
        engines = [create_engine(settings) for _ in range(4)]
        try:
            runners = [
                PouchRunner(create_sessionmaker(engine), clock, name=f"runner-{n}")
                for n, engine in enumerate(engines)
            ]
            return list(await asyncio.gather(*(r.run_once() for r in runners)))
        finally:
            for engine in engines:
                await engine.dispose()

    resolved = server.blocking_portal.call(race)
    assert sum(resolved) == 8  # 4 games × 2 days, none twice

    async def check(db: AsyncSession) -> None:
        records = await _pouches(db)
        assert sorted((r.game_id, r.day) for r in records) == sorted(
            (g, d) for g in {r.game_id for r in records} for d in (1, 2)
        )
        for public_id in ids:
            game = await game_row(db, public_id)
            assert (game.day, game.version) == (3, 2)

    run_db(check)


def test_an_early_pouch_leaves_when_every_living_player_is_done(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = open_table(host, players, run_db, app, early_pouch="yes")
    for person in table.people[:-1]:
        assert person.form(table.path("/done"), {"done": "yes"}).status_code == 303
    assert table.run() == 0
    table.people[-1].json(table.api("/done"), {"done": True})
    assert table.deadline() == START  # S41: due at once
    assert table.run() == 1
    [record] = pouches(table)
    assert record.early and record.deadline == START
    # The next day still ends at the Pouch time, at least half a day away.
    assert table.deadline() == datetime(2026, 3, 28, 20, 0, tzinfo=UTC)
    assert table.state().done == (False,) * 6


def test_no_early_pouch_unless_the_game_has_it(table: Table) -> None:
    for person in table.people:
        person.form(table.path("/done"), {"done": "yes"})
    assert table.run() == 0
    assert table.deadline() == datetime(2026, 3, 28, 20, 0, tzinfo=UTC)


def test_the_server_runs_the_runner_in_process(
    settings: Settings, run_db: RunDB, make_players: Callable[[int], list[Person]]
) -> None:
    clock = ManualClock(START)
    app = create_app(settings, clock=clock, pouch_runner=True)
    with TestClient(app) as client:
        ids = client.blocking_portal.call(_make_one_game, app, clock)
        clock.set(datetime(2026, 3, 28, 20, 0, 1, tzinfo=UTC))
        app.state.pouch_runner.wake()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            day = client.blocking_portal.call(_day_of, app, ids[0])
            if day == 2:
                break
            time.sleep(0.05)
        assert day == 2


async def _make_one_game(app: Litestar, clock: ManualClock) -> list[str]:
    async with app.state.sessionmaker() as db:
        return await quick_games(db, 1, clock, "inproc")


async def _day_of(app: Litestar, public_id: str) -> int:
    async with app.state.sessionmaker() as db:
        return (await game_row(db, public_id)).day


def test_deaddrop_worker_once_resolves_what_is_due(
    table: Table, settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    from deaddrop.cli import main

    async def overdue(db: AsyncSession) -> None:
        game = await game_row(db, table.game_id)
        game.deadline = datetime.now(UTC) - timedelta(minutes=1)
        await db.commit()

    table.run_db(overdue)
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    monkeypatch.setenv("SECRET_KEY", settings.secret_key)
    monkeypatch.setenv("DEADDROP_VAR_DIR", str(tmp_path))
    if settings.database_schema:
        monkeypatch.setenv("DATABASE_SCHEMA", settings.database_schema)
    assert main(["worker", "--once"]) == 0
    assert table.game().day == 2

    async def count(db: AsyncSession) -> int:
        return int(await db.scalar(select(func.count()).select_from(StationPouch)) or 0)

    assert table.run_db(count) == 1
