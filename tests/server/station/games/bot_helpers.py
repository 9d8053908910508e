"""A Station table with bot seats, and the bot runner driven by the tests (issue 14)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from litestar import Litestar
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.station.bot_seats.models import StationBotDecision
from deaddrop.server.station.bot_seats.runner import BotRunner, BotTiming
from deaddrop.server.station.game.models import StationAction
from tests.server.station.games.helpers import (
    Person,
    RunDB,
    Table,
    game_row,
    invite_token,
    join,
    open_lobby,
)

EAGER = BotTiming(min_interval=timedelta(0))
"""Tests decide as often as something changes."""


def bot_table(
    host: Person, people: list[Person], levels: list[str], run_db: RunDB, app: Litestar
) -> Table:
    """A game of the host, `people` (joined in order) and bots of `levels`, started."""
    game_id = open_lobby(host)
    if people:
        token = invite_token(host, game_id)
        for person in people:
            assert join(person, token).status_code == 303
    for level in levels:
        assert host.form(f"/games/{game_id}/bots", {"level": level}).status_code == 303
    started = host.form(f"/games/{game_id}/start")
    assert started.headers["location"] == f"/games/{game_id}/cable", host.flashes()
    table = Table(game_id, host, [host, *people], run_db, app)
    state = table.state()
    table.codenames = [seat.codename for seat in state.seats]
    table.roles = [seat.role for seat in state.seats]
    return table


def bot_runner(table: Table, timing: BotTiming = EAGER, name: str = "test") -> BotRunner:
    """A bot runner on the app's database and clock."""
    return BotRunner(table.app.state.sessionmaker, table.clock, timing, name=name)


def run_bots(table: Table, runner: BotRunner | None = None) -> int:
    """One pass of a bot runner, in the app's event loop: the decisions made."""
    chosen = runner or bot_runner(table)

    async def once(db: AsyncSession) -> int:
        return await chosen.run_once()

    made: int = table.run_db(once)
    return made


def saves_today(table: Table) -> list[dict[str, Any]]:
    """The actions stored on today's day of the game, in order."""

    async def read(db: AsyncSession) -> list[dict[str, Any]]:
        game = await game_row(db, table.game_id)
        rows = await db.scalars(
            select(StationAction.action)
            .where(StationAction.game_id == game.id, StationAction.day == game.day)
            .order_by(StationAction.seq)
        )
        return list(rows)

    found: list[dict[str, Any]] = table.run_db(read)
    return found


def decisions(table: Table) -> list[StationBotDecision]:
    """Every bot decision recorded for the table's game."""

    async def read(db: AsyncSession) -> list[StationBotDecision]:
        game = await game_row(db, table.game_id)
        rows = await db.scalars(
            select(StationBotDecision)
            .where(StationBotDecision.game_id == game.id)
            .order_by(StationBotDecision.id)
        )
        return list(rows)

    found: list[StationBotDecision] = table.run_db(read)
    return found
