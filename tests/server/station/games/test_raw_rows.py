"""Rows read straight through the driver become the session's objects exactly as the ORM's own
query would have made them (db/raw_rows.py), on every backend."""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import bindparam, inspect, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.db.driver import send_in
from deaddrop.server.db.raw_rows import columns_of, kept, loaded
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.testing.clocks import ManualClock
from tests.server.station.games.helpers import RunDB, game_row
from tests.server.station.games.test_runner import quick_games

_GAME = select(*columns_of(StationGame)).where(StationGame.public_id == bindparam("game"))


def _values(row: Any) -> dict[str, Any]:
    return {key: getattr(row, key) for key in inspect(type(row)).attrs.keys()}  # noqa: SIM118


async def _through_the_driver(db: AsyncSession, game_id: str) -> StationGame:
    [row] = (await send_in(db, _GAME, {"game": game_id})).rows
    return loaded(db, StationGame, row)


def test_a_loaded_row_equals_the_orms_and_is_the_sessions_own(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar]
) -> None:
    [game_id] = run_db(lambda db: quick_games(db, 1, clock, "raw"))
    by_orm = _values(run_db(lambda db: game_row(db, game_id)))

    async def load(db: AsyncSession) -> None:
        game = await _through_the_driver(db, game_id)
        assert _values(game) == by_orm  # moments aware, JSON decoded, booleans as bools
        assert inspect(game).persistent and not inspect(game).modified
        assert await db.get(StationGame, game.id) is game
        assert await _through_the_driver(db, game_id) is game  # the session's own, again
        assert await game_row(db, game_id) is game

    run_db(load)


def test_a_loaded_row_is_written_by_the_orm_at_the_version_read(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar]
) -> None:
    [game_id] = run_db(lambda db: quick_games(db, 1, clock, "rawwrite"))
    before = run_db(lambda db: game_row(db, game_id)).row_version

    async def rename(db: AsyncSession) -> None:
        game = await _through_the_driver(db, game_id)
        game.title = "Renamed"
        await db.commit()  # the ORM's flush: UPDATE … WHERE row_version = <read>

    run_db(rename)
    after = run_db(lambda db: game_row(db, game_id))
    assert (after.title, after.row_version) == ("Renamed", before + 1)


def test_a_kept_row_is_what_get_answers_without_asking(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar]
) -> None:
    [game_id] = run_db(lambda db: quick_games(db, 1, clock, "kept"))

    async def look(db: AsyncSession) -> None:
        assert kept(db, StationGame, 1_000_000) is None  # never loaded: `db.get` must ask
        game = await _through_the_driver(db, game_id)
        key = game.id  # read before expiring: an expired object's attribute is a query
        assert kept(db, StationGame, key) is game
        assert kept(db, StationGame, key + 1) is None  # another row
        db.expire(game)
        assert kept(db, StationGame, key) is None  # expired: `db.get` reads it again
        assert await db.get(StationGame, key) is game
        assert kept(db, StationGame, key) is game  # current again
        await db.delete(game)
        await db.flush()
        assert kept(db, StationGame, key) is None  # deleted: `db.get` finds nothing
        assert await db.get(StationGame, key) is None
        await db.rollback()

    run_db(look)
