"""Inactivity (issue 4) counts a stand-in's day as its person's absence (issue 14): whatever
the bot saved for them, two such days mark the seat; a day they came back is theirs."""

from __future__ import annotations

import pytest
from litestar import Litestar

from tests.server.station.games.helpers import Person, RunDB, Table
from tests.server.station.games.standin_helpers import (
    bring_stand_ins,
    standin_table,
)
from tests.server.station.games.standin_helpers import (
    same_deal as same_deal,
)

pytestmark = pytest.mark.usefixtures("same_deal")  # one deal (S4): the bots play alike each run

MARK = "Inactive: saved nothing for two days"
IDLE, BACK = 3, 4


def _two_days(table: Table, *, back_on_day_2: bool) -> None:
    """Two days on which everyone but IDLE and BACK votes and a stand-in plays those two."""
    for day in (1, 2):
        for seat in range(3):
            vote = {"vote": "abstain"}
            assert table.people[seat].form(table.path("/vote"), vote).status_code == 303
        bring_stand_ins(table)
        if day == 2 and back_on_day_2:
            assert table.people[BACK].form(table.path("/standin/take-back")).status_code == 303
        assert table.pouch() == 1


def test_two_stood_in_days_mark_the_seat_inactive_and_a_day_back_clears_it(
    host: Person,
    players: list[Person],
    run_db: RunDB,
    app: Litestar,
) -> None:
    table = standin_table(host, players[:4], ["heuristic"], run_db, app)
    _two_days(table, back_on_day_2=True)
    state = table.state()
    assert state.alive[IDLE] and state.alive[BACK], "the deal burned a seat the test needs"
    history = state.history
    assert history[0].votes[IDLE] is not None or history[0].operations[IDLE] is not None
    roster = host.get(table.path("/roster")).text
    rows = {seat: _row(roster, table.codenames[seat]) for seat in (IDLE, BACK, 5)}
    assert MARK in rows[IDLE]  # the bot saved for them both days: still their absence
    assert MARK not in rows[BACK]  # they came back on Day 2
    assert MARK not in rows[5]  # a bot seat of its own is never absent
    assert table.codenames[IDLE] in host.get(table.path("/host")).text


def _row(roster: str, codename: str) -> str:
    """The Roster's table row of one codename."""
    start = roster.index(f">{codename}<")
    return roster[start : roster.index("</tr>", start)]
