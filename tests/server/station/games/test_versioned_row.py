"""A game row written by Core (db/versioned.py): only at the version read, kept in the session
as written, so that the ORM's flush finds nothing more to write."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import event, inspect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from deaddrop.server.db.versioned import write_versioned_row
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.testing.clocks import ManualClock
from tests.server.station.games.helpers import RunDB, game_row
from tests.server.station.games.test_runner import quick_games


def _statements(db: AsyncSession) -> list[str]:
    """The SQL sent on `db`'s engine from now on."""
    sent: list[str] = []
    bind = db.bind.sync_engine  # type: ignore[union-attr]

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement.split()[0].upper())

    event.listen(bind, "before_cursor_execute", record)
    return sent


async def _title_and_version(db: AsyncSession, game_id: str) -> tuple[str, int]:
    game = await game_row(db, game_id)
    return game.title, game.row_version


def test_a_changed_row_is_written_once_and_left_clean(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar]
) -> None:
    [game_id] = run_db(lambda db: quick_games(db, 1, clock, "clean"))
    _, before = run_db(lambda db: _title_and_version(db, game_id))

    async def rename(db: AsyncSession) -> list[str]:
        game = await game_row(db, game_id)
        game.title = "Renamed"
        await write_versioned_row(db, game)
        assert game.row_version == before + 1
        assert not inspect(game).committed_state and game not in db.dirty
        sent = _statements(db)
        await db.commit()  # the ORM's flush finds nothing to write
        return sent

    assert "UPDATE" not in run_db(rename)
    assert run_db(lambda db: _title_and_version(db, game_id)) == ("Renamed", before + 1)


def test_an_unchanged_row_is_not_written(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar]
) -> None:
    [game_id] = run_db(lambda db: quick_games(db, 1, clock, "same"))
    title, before = run_db(lambda db: _title_and_version(db, game_id))

    async def touch_nothing(db: AsyncSession) -> list[str]:
        game = await game_row(db, game_id)
        sent = _statements(db)
        await write_versioned_row(db, game)
        await db.commit()
        return sent

    assert "UPDATE" not in run_db(touch_nothing)
    assert run_db(lambda db: _title_and_version(db, game_id)) == (title, before)


def test_a_row_changed_meanwhile_is_refused_and_nothing_is_written(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar]
) -> None:
    [game_id] = run_db(lambda db: quick_games(db, 1, clock, "race"))
    sessionmaker = server.app.state.sessionmaker

    async def lose_the_race(db: AsyncSession) -> None:
        game = await game_row(db, game_id)
        await db.commit()  # let the other writer in (SQLite: one writer at a time)
        async with sessionmaker() as other:
            (await game_row(other, game_id)).title = "Theirs"
            await other.commit()
        game.title = "Mine"
        with pytest.raises(StaleDataError):
            await write_versioned_row(db, game)
        await db.rollback()

    _, before = run_db(lambda db: _title_and_version(db, game_id))
    run_db(lose_the_race)
    assert run_db(lambda db: _title_and_version(db, game_id)) == ("Theirs", before + 1)


def test_a_row_not_stored_yet_is_left_to_the_orm(
    clock: ManualClock, run_db: RunDB, server: TestClient[Litestar]
) -> None:
    [game_id] = run_db(lambda db: quick_games(db, 1, clock, "new"))

    async def copy_and_write(db: AsyncSession) -> str:
        model = await game_row(db, game_id)
        copy = StationGame(
            public_id="copy-of-a-game",
            invite_token="copy-invite",
            host_id=model.host_id,
            title="A copy",
            pouch_minute=model.pouch_minute,
            time_zone=model.time_zone,
            row_version=1,
        )
        db.add(copy)
        await write_versioned_row(db, copy)  # pending: the ORM inserts it at the commit
        await db.commit()
        return (await game_row(db, "copy-of-a-game")).title

    assert run_db(copy_and_write) == "A copy"
