"""Fixtures of the plain saves' and posts' tests (server/quick_posts.py `PLAIN_KEY`)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server import quick_posts as quick_posts_module
from deaddrop.server.station.game.models import StationGame
from tests.server.station.tabs_fixtures import RunDB, Table
from tests.server.visitor import Visitor


@pytest.fixture(name="plainly")
def plain_outcomes(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """For each post a plain way was tried on: whether it served it (else the full path did)."""
    outcomes: list[bool] = []
    served_plainly = quick_posts_module._served_plainly

    async def counted(plain: Any, *args: Any) -> bool:
        done = await served_plainly(plain, *args)
        outcomes.append(done)
        return done

    monkeypatch.setattr(quick_posts_module, "_served_plainly", counted)
    return outcomes


def known(player: Visitor, table: Table) -> None:
    """A first request with the player's session (this process then knows whose it is)."""
    assert player.get(f"/api/games/{table.game_id}").status_code == 200


def switched(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, module: Any) -> bool:
    """The plain way of `module`'s routes on (`request.param`), or off: its plain function
    (`module.plain_save` or `module.plain_post`) then serves nothing, and the full way does."""
    if not request.param:

        async def never(*_args: Any) -> None:
            return None

        name = "plain_save" if hasattr(module, "plain_save") else "plain_post"
        monkeypatch.setattr(module, name, never)
    return bool(request.param)


def set_game(run_db: RunDB, table: Table, **values: Any) -> None:
    """Set columns of the game row, as a writer does (its row version moved on)."""

    async def write(db: AsyncSession) -> None:
        await db.execute(
            update(StationGame)
            .where(StationGame.public_id == table.game_id)
            .values(**values, row_version=StationGame.row_version + 1)
        )
        await db.commit()

    run_db(write)
