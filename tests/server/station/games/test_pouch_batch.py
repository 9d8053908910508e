"""The Pouch wave: many games due at once resolve a batch per transaction, still exactly once."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from deaddrop.server.db.versioned import update_versioned
from deaddrop.server.settings import Settings
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.station.play import pouch_batch
from deaddrop.server.station.play.pouch_runner import PouchRunner
from deaddrop.server.testing.clocks import ManualClock
from tests.server.station.games.helpers import RunDB, game_row
from tests.server.station.games.test_runner import _pouches, quick_games

DAY_ONE = datetime(2026, 3, 28, 20, 0, tzinfo=UTC)  # 21:00 in Berlin


class PowerCut(BaseException):
    """A crash: nothing of the runner's own handles it (it is not an Exception)."""


def _runner(server: TestClient[Litestar], clock: ManualClock, **kwargs: Any) -> PouchRunner:
    return PouchRunner(server.app.state.sessionmaker, clock, **kwargs)


def _run(server: TestClient[Litestar], runner: PouchRunner) -> int:
    result: int = server.blocking_portal.call(runner.run_once)
    return result


def _due_wave(
    run_db: RunDB, clock: ManualClock, monkeypatch: pytest.MonkeyPatch, games: int, batch: int
) -> list[str]:
    """`games` started games, all due now, resolved `batch` to a transaction."""
    monkeypatch.setattr(pouch_batch, "BATCH", batch)
    ids: list[str] = run_db(lambda db: quick_games(db, games, clock, f"wave{games}x{batch}"))
    clock.set(DAY_ONE)
    return ids


async def _days(db: AsyncSession, ids: list[str]) -> list[tuple[int, int]]:
    return [((game := await game_row(db, i)).day, game.version) for i in ids]


def test_a_wave_resolves_in_batches_each_game_once(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _due_wave(run_db, clock, monkeypatch, 7, 3)
    assert _run(server, _runner(server, clock)) == 7
    assert _run(server, _runner(server, clock)) == 0
    records = run_db(_pouches)
    assert sorted(r.day for r in records) == [1] * 7 and len({r.game_id for r in records}) == 7
    assert run_db(lambda db: _days(db, ids)) == [(2, 1)] * 7


def test_a_crash_mid_batch_stores_none_of_it_and_the_next_runner_resolves_each_once(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _due_wave(run_db, clock, monkeypatch, 6, 4)
    staged: list[int] = []

    async def crash_on_the_third(game: StationGame, day: int) -> None:
        staged.append(game.id)
        if len(staged) == 3:
            raise PowerCut()

    doomed = _runner(server, clock, before_commit=crash_on_the_third, name="doomed")

    async def until_the_cut() -> bool:
        try:
            await doomed.run_once()
        except PowerCut:  # caught here, in the loop, as a dead process's loop would end
            return True
        return False

    assert server.blocking_portal.call(until_the_cut)
    assert run_db(_pouches) == []  # the two days staged before the cut were not kept
    assert run_db(lambda db: _days(db, ids)) == [(1, 0)] * 6
    assert _run(server, _runner(server, clock, name="survivor")) == 6
    records = run_db(_pouches)
    assert sorted((r.game_id, r.day, r.runner) for r in records) == sorted(
        (g, 1, "survivor") for g in {r.game_id for r in records}
    )
    assert len(records) == 6


def test_a_broken_game_leaves_the_rest_of_its_batch_to_resolve_one_by_one(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _due_wave(run_db, clock, monkeypatch, 5, 4)
    broken = run_db(lambda db: game_row(db, ids[1])).id

    async def refuse_one(game: StationGame, day: int) -> None:
        if game.id == broken:
            raise RuntimeError("a game that cannot be stored")

    assert _run(server, _runner(server, clock, before_commit=refuse_one)) == 4
    assert [day for day, _ in run_db(lambda db: _days(db, ids))] == [2, 1, 2, 2, 2]
    assert _run(server, _runner(server, clock)) == 1  # fixed, it resolves once as well
    assert len(run_db(_pouches)) == 5


def test_batched_game_rows_are_written_only_at_the_version_read(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar], settings: Settings
) -> None:
    ids = run_db(lambda db: quick_games(db, 2, clock, "rows"))
    sessionmaker = server.app.state.sessionmaker
    before = [version for _, version in run_db(lambda db: _extended(db, ids))]

    async def write_both(moved_meanwhile: str | None) -> None:
        async with sessionmaker() as db:
            claim = select(StationGame).where(StationGame.public_id.in_(ids)).with_for_update()
            games = list(await db.scalars(claim.order_by(StationGame.id)))
            if moved_meanwhile is not None:
                async with sessionmaker() as other:  # another writer commits first
                    (await game_row(other, moved_meanwhile)).title = "Renamed"
                    await other.commit()
            for game in games:
                game.day_extended_seconds = 60
            await update_versioned(db, games, locked=True)
            await db.commit()

    server.blocking_portal.call(write_both, None)
    after = [(60, version + 1) for version in before]
    assert run_db(lambda db: _extended(db, ids)) == after
    if not settings.database_url.startswith("sqlite"):
        return  # PostgreSQL: the claim's row locks keep every other writer waiting
    with pytest.raises(StaleDataError):
        server.blocking_portal.call(write_both, ids[1])
    assert run_db(lambda db: _extended(db, ids)) == [after[0], (60, after[1][1] + 1)]


async def _extended(db: AsyncSession, ids: list[str]) -> list[tuple[int, int]]:
    return [((game := await game_row(db, i)).day_extended_seconds, game.row_version) for i in ids]
