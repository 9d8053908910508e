"""A Station table with the stand-ins' auto-pilot on, and what the tests read of stand-ins."""

from __future__ import annotations

from datetime import timedelta

import pytest
from litestar import Litestar
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.station.game.models import StationAnnouncement, StationSeat
from deaddrop.server.station.lobby import service as lobby_service
from deaddrop.server.station.standins.models import StationStandIn
from tests.server.station.games.bot_helpers import bot_table, game_rows, run_bots
from tests.server.station.games.helpers import Person, RunDB, Table, game_row, open_lobby

HOURS = 2
"""The auto-pilot's hours before the Pouch in these tests."""
SEED = 7
"""The deal of the tests that play one (`same_deal`)."""


def set_auto_pilot(
    host: Person, game_id: str, hours: int = HOURS, level: str = "heuristic"
) -> None:
    """Turn the auto-pilot on through the host's form."""
    fields = {"enabled": "yes", "hours": str(hours), "level": level}
    response = host.form(f"/games/{game_id}/standins", fields)
    assert response.status_code == 303, response.text
    assert "stands in" in host.flashes()


def standin_table(
    host: Person, people: list[Person], levels: list[str], run_db: RunDB, app: Litestar
) -> Table:
    """A started game of the host, `people` and bots of `levels`, its auto-pilot on (2 h)."""
    table = bot_table(host, people, levels, run_db, app)
    set_auto_pilot(host, table.game_id)
    return table


def lobby_with_auto_pilot(host: Person) -> str:
    """A lobby whose host set the auto-pilot before the start."""
    game_id = open_lobby(host)
    set_auto_pilot(host, game_id)
    return game_id


def to_stand_in_time(table: Table) -> None:
    """Move the clock just past the moment a stand-in is due (2 h before the Pouch)."""
    table.clock.set(table.deadline() - timedelta(hours=HOURS) + timedelta(seconds=1))


def bring_stand_ins(table: Table) -> None:
    """Move the clock to the stand-ins' moment and let a bot runner look (and play)."""
    to_stand_in_time(table)
    run_bots(table)


def stand_ins(table: Table) -> list[StationStandIn]:
    """Every stand-in of the table's game, in order."""
    return game_rows(table, StationStandIn)


def notices(table: Table, kind: str) -> list[str]:
    """The texts of the game's announcements of `kind`."""

    async def read(db: AsyncSession) -> list[str]:
        game = await game_row(db, table.game_id)
        rows = await db.scalars(
            select(StationAnnouncement.text).where(
                StationAnnouncement.game_id == game.id, StationAnnouncement.kind == kind
            )
        )
        return list(rows)

    found: list[str] = table.run_db(read)
    return found


def bot_level_of(table: Table, seat: int) -> str | None:
    """The bot level on a seat's row now (a bot seat's, or a stand-in's)."""

    async def read(db: AsyncSession) -> str | None:
        game = await game_row(db, table.game_id)
        level: str | None = await db.scalar(
            select(StationSeat.bot_level).where(
                StationSeat.game_id == game.id, StationSeat.seat == seat
            )
        )
        return level

    found: str | None = table.run_db(read)
    return found


class _Seeded:
    """`secrets` as the lobby's start uses it, with one seed for every deal."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randbits(self, bits: int) -> int:
        """The test's seed, whatever is asked."""
        return self.seed


def fixed_deal(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Deal the games of the test from `seed` (S4), so that its bots play the same game."""
    monkeypatch.setattr(lobby_service, "secrets", _Seeded(seed))


@pytest.fixture
def same_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game of the test dealt from one seed (S4): what the bots do is the same each run."""
    fixed_deal(monkeypatch, SEED)
