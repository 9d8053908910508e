"""A Station table with bot seats, and the bot runner driven by the tests (issue 14)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from litestar import Litestar
from sqlalchemy import select
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.state import State
from deaddrop.server.station.bot_seats import runner as runner_module
from deaddrop.server.station.bot_seats.models import StationBotDecision
from deaddrop.server.station.bot_seats.runner import BotRunner, BotTiming
from deaddrop.server.station.bot_seats.seat_input import SeatInput, seat_input
from deaddrop.server.station.game.models import StationAction, StationSeat
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


def game_rows(table: Table, model: Any) -> list[Any]:
    """Every row of `model` (a table with `game_id` and `id`) for the table's game, in order."""

    async def read(db: AsyncSession) -> list[Any]:
        game = await game_row(db, table.game_id)
        rows = await db.scalars(select(model).where(model.game_id == game.id).order_by(model.id))
        return list(rows)

    found: list[Any] = table.run_db(read)
    return found


def decisions(table: Table) -> list[StationBotDecision]:
    """Every bot decision recorded for the table's game."""
    return game_rows(table, StationBotDecision)


def run_two_bot_runners(table: Table) -> list[int]:
    """One pass each of two bot runners at the same moment: the decisions each made."""
    one, two = bot_runner(table, name="one"), bot_runner(table, name="two")

    async def both(db: AsyncSession) -> list[int]:
        return list(await asyncio.gather(one.run_once(), two.run_once()))

    made: list[int] = table.run_db(both)
    return made


def record_inputs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[State, int, SeatInput]]:
    """From now on, every input a bot runner gives a seat, with the state it was built from."""
    seen: list[tuple[State, int, SeatInput]] = []

    async def recording(db: AsyncSession, game_id: int, state: State, seat: int) -> SeatInput:
        given = await seat_input(db, game_id, state, seat)
        seen.append((state, seat, given))
        return given

    monkeypatch.setattr(runner_module, "seat_input", recording)
    return seen


async def seat_row(db: AsyncSession, table: Table, seat: int) -> StationSeat:
    """The row of one engine seat of the table's game."""
    game = await game_row(db, table.game_id)
    row = await db.scalar(
        select(StationSeat).where(StationSeat.game_id == game.id, StationSeat.seat == seat)
    )
    assert row is not None
    return row


def lock_the_first_carry_out(monkeypatch: pytest.MonkeyPatch) -> list[Exception]:
    """Make the next bot decision fail as on a locked database, once; the failure still to
    come (empty once it came)."""
    carry_out = BotRunner._carry_out
    failures: list[Exception] = [OperationalError("INSERT", {}, Exception("database is locked"))]

    async def locked_once(runner: BotRunner, *args: Any) -> None:
        if failures:
            raise failures.pop()
        await carry_out(runner, *args)

    monkeypatch.setattr(BotRunner, "_carry_out", locked_once)
    return failures
