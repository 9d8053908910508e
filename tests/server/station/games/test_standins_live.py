"""A stand-in's start reaches every open Floor page at once (S42: public), and the button to
take the seat back only the page of the person it stands in for."""

from __future__ import annotations

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.station.game.access import GameContext, access_game_for_player
from tests.server.station.games.helpers import Person, RunDB, Table, user_named
from tests.server.station.games.standin_helpers import bring_stand_ins, standin_table
from tests.server.station.games.standin_helpers import same_deal as same_deal
from tests.server.station.test_live_stream import pushed

pytestmark = pytest.mark.usefixtures("same_deal")  # one deal (S4): the bots play alike each run

IDLE = 4


def _context(table: Table, seat: int) -> GameContext:
    """The game as the person at `seat` reaches it."""

    async def fetch(db: AsyncSession) -> GameContext:
        user = await user_named(db, table.people[seat].username)
        return await access_game_for_player(db, table.game_id, user)

    found: GameContext = table.run_db(fetch)
    return found


def test_the_stand_ins_notice_is_pushed_to_every_open_floor(
    server: TestClient[Litestar], host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = standin_table(host, players[:4], ["heuristic"], run_db, app)
    for seat in range(IDLE):  # everyone but IDLE did something public today
        vote = {"vote": table.codenames[5]}
        assert table.people[seat].form(table.path("/vote"), vote).status_code == 303
    afters = {}
    for seat in range(IDLE + 1):
        page = table.people[seat].get(table.path("/floor")).text
        afters[seat] = int(page.split('data-live-after="')[1].split('"')[0])
    bring_stand_ins(table)
    notice = f"{table.codenames[IDLE]} had not voted, whispered, posted or marked done"
    for seat in range(IDLE + 1):
        fragments = pushed(server, _context(table, seat), "floor", afters[seat])
        assert fragments and notice in fragments[-1][1], seat
        assert ("Take my seat back" in fragments[-1][1]) == (seat == IDLE), seat
