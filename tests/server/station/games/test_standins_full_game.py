"""Issue 14's whole game: four people and four bots play Station to its end with the Pouch
runner and the bot runner; the people move through the pages' own forms, one of them saves
nothing and a stand-in takes over their seat (announced on the Floor), and the bots' claims
(S43) are on the Floor for everyone to read."""

from __future__ import annotations

from datetime import timedelta

import pytest
from litestar import Litestar
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.state import State
from deaddrop.server.station.chat.models import StationMessage
from tests.server.station.games.bot_helpers import run_bots
from tests.server.station.games.helpers import Person, RunDB, Table, game_row
from tests.server.station.games.standin_helpers import (
    bring_stand_ins,
    stand_ins,
    standin_table,
)
from tests.server.station.games.standin_helpers import (
    same_deal as same_deal,
)

pytestmark = pytest.mark.usefixtures("same_deal")  # one deal (S4): the bots play alike each run

LEVELS = ["expert", "heuristic", "expert", "heuristic"]
PEOPLE, IDLE = (0, 1, 2), 3
"""The host and two players move; players[2], at seat 3, saves nothing; seats 4-7 are bots."""
BOTS = range(4, 8)
MAX_DAYS = 10
"""S6: the last possible Pouch is Day 10's."""


def _people_move(table: Table, state: State) -> None:
    """Each living person votes through the Floor's form for the first other living officer."""
    for seat in PEOPLE:
        if state.alive[seat]:
            target = next(s for s in state.living() if s != seat)
            vote = {"vote": table.codenames[target]}
            assert table.people[seat].form(table.path("/vote"), vote).status_code == 303


def _play_day(table: Table, read_the_floor: bool = False) -> None:
    """One day: the people move, the bots decide, a stand-in comes when due, the Pouch leaves.
    `read_the_floor`: every person reads the Floor before the Pouch (the stand-in's notice)."""
    _people_move(table, table.state())
    run_bots(table)
    bring_stand_ins(table)
    idle = table.codenames[IDLE]
    for person in table.people if read_the_floor else ():  # S42: public to the whole table
        assert (
            f"{idle} had not voted, whispered, posted or marked done 2 h before"
            in person.get(table.path("/floor")).text
        )
    table.clock.set(table.deadline() - timedelta(minutes=1))
    run_bots(table)  # the last call before the Pouch
    assert table.pouch() == 1


def _floor_posts(table: Table) -> list[tuple[int, str]]:
    """(seat, text) of every Floor post of the game."""

    async def read(db: AsyncSession) -> list[tuple[int, str]]:
        game = await game_row(db, table.game_id)
        rows = await db.execute(
            select(StationMessage.seat, StationMessage.text).where(
                StationMessage.game_id == game.id, StationMessage.channel == "floor"
            )
        )
        return [(seat, text) for seat, text in rows.all()]

    found: list[tuple[int, str]] = table.run_db(read)
    return found


def test_four_people_and_four_bots_play_to_the_end_with_a_stand_in(
    host: Person,
    players: list[Person],
    run_db: RunDB,
    app: Litestar,
) -> None:
    table = standin_table(host, players[:3], LEVELS, run_db, app)
    _play_day(table, read_the_floor=True)
    (stand_in,) = stand_ins(table)
    assert (stand_in.seat, stand_in.from_day) == (IDLE, 1)
    for _ in range(MAX_DAYS - 1):
        if table.state().over:
            break
        _play_day(table)
    state = table.state()
    assert state.over and state.winner in ("station", "ring")
    assert [s.seat for s in stand_ins(table)] == [IDLE]  # one stand-in, never restarted
    assert any(record.votes[IDLE] is not None for record in state.history)  # it played
    bot_posts = [(seat, text) for seat, text in _floor_posts(table) if seat in BOTS]
    claims = [text for _, text in bot_posts if " read " in text or "I suspect" in text]
    assert claims, f"the bots made no S43 claim on the Floor: {bot_posts}"
    floor = host.get(table.path("/floor")).text
    assert any(f">{table.codenames[seat]}</span>" in floor for seat, _ in bot_posts)
