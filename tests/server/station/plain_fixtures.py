"""Fixtures of the plain saves' and posts' tests (server/quick_posts.py `PLAIN_KEY`)."""

from __future__ import annotations

from typing import Any

import pytest

from deaddrop.server import quick_posts as quick_posts_module
from tests.server.station.tabs_fixtures import Table
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
