"""Stand-ins (issue 14): a bot plays for a person who has done nothing public N hours before
the Pouch; it starts once, the Floor announces it, and the person takes the seat back by a button
or by a save of their own, which wins (S7). Its input is the seat's own view only (S42)."""

from __future__ import annotations

import pytest
from litestar import Litestar
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import CastVote, EditFinalCable
from deaddrop.engine.station.views import view
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.play.service import do_act
from deaddrop.server.station.standins.back import do_take_back
from deaddrop.server.station.standins.ledger import BACK, STARTED
from tests.server.station.games.bot_helpers import (
    record_inputs,
    run_bots,
    run_two_bot_runners,
    saves_today,
    seat_row,
)
from tests.server.station.games.helpers import Person, RunDB, Table, game_row, user_named
from tests.server.station.games.standin_helpers import (
    bot_level_of,
    bring_stand_ins,
    notices,
    stand_ins,
    standin_table,
    to_stand_in_time,
)
from tests.server.station.games.standin_helpers import (
    same_deal as same_deal,
)
from tests.server.station.games.test_bot_input_s42 import _check_only_own

pytestmark = pytest.mark.usefixtures("same_deal")  # one deal (S4): the bots play alike each run

IDLE = 4
"""The seat of the person who saves nothing (players[3]); seat 5 is a bot seat."""


def _table(host: Person, players: list[Person], run_db: RunDB, app: Litestar) -> Table:
    table = standin_table(host, players[:4], ["heuristic"], run_db, app)
    for seat in range(IDLE):  # everyone else votes through the form, as a person does
        vote = table.codenames[(seat + 1) % 6]
        assert table.people[seat].form(table.path("/vote"), {"vote": vote}).status_code == 303
    return table


def _stood_in(host: Person, players: list[Person], run_db: RunDB, app: Litestar) -> Table:
    """The table at the moment a stand-in began to play the IDLE seat."""
    table = _table(host, players, run_db, app)
    bring_stand_ins(table)
    return table


def test_a_stand_in_plays_for_the_idle_person_only_and_everyone_reads_it_on_the_floor(
    host: Person, players: list[Person], stranger: Person, run_db: RunDB, app: Litestar
) -> None:
    table = _table(host, players, run_db, app)
    run_bots(table)
    assert stand_ins(table) == []  # not yet: more than 2 h to the Pouch
    bring_stand_ins(table)
    (stand_in,) = stand_ins(table)
    assert (stand_in.seat, stand_in.from_day, stand_in.level) == (IDLE, 1, "heuristic")
    assert bot_level_of(table, IDLE) == "heuristic"
    assert any(a.get("seat") == IDLE for a in saves_today(table))  # the bot saved for the seat
    idle = table.codenames[IDLE]
    for person in table.people:  # S42: whether a bot plays a seat is public
        floor = person.get(table.path("/floor")).text
        assert f"{idle} had not voted, whispered, posted or marked done 2 h before" in floor
        assert "Bot (heuristic)" in person.get(table.path("/roster")).text
    assert stranger.get(table.path("/floor")).status_code == 404
    assert "Take my seat back" in table.people[IDLE].get(table.path("/floor")).text
    assert "Take my seat back" not in host.get(table.path("/floor")).text


def test_a_stand_in_starts_once_under_two_runners_at_once(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = _table(host, players, run_db, app)
    to_stand_in_time(table)
    run_two_bot_runners(table)
    run_two_bot_runners(table)
    assert [s.seat for s in stand_ins(table)] == [IDLE]
    assert len(notices(table, STARTED)) == 1


def test_the_person_takes_the_seat_back_by_the_button_and_is_not_stood_in_again_today(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = _stood_in(host, players, run_db, app)
    idle = table.people[IDLE]
    assert idle.form(table.path("/standin/take-back")).status_code == 303
    assert "Your seat is yours again" in idle.flashes()
    assert bot_level_of(table, IDLE) is None
    assert stand_ins(table)[0].back_day == 1
    floor = host.get(table.path("/floor")).text
    assert f"{table.codenames[IDLE]}&#39;s officer is back at the desk" in floor
    run_bots(table)
    assert len(stand_ins(table)) == 1  # their choice stands for the rest of the day
    assert "Take my seat back" not in idle.get(table.path("/floor")).text
    again = idle.json(table.api("/standin/take-back"))
    assert again.status_code == 422 and "No bot is standing in" in again.json()["detail"]


def test_the_persons_own_save_wins_over_the_stand_in_and_ends_it(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = _stood_in(host, players, run_db, app)
    mine = table.codenames[0]
    assert table.people[IDLE].form(table.path("/vote"), {"vote": mine}).status_code == 303
    assert bot_level_of(table, IDLE) is None
    assert len(notices(table, BACK)) == 1
    host.form(table.path("/vote"), {"vote": table.codenames[2]})  # news for the bots
    run_bots(table)
    assert table.state().votes[IDLE] == 0  # S7: the last save counts, and it is theirs


def test_a_stand_ins_save_racing_the_take_back_is_refused(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = _stood_in(host, players, run_db, app)
    maker = app.state.sessionmaker

    async def race(db: AsyncSession) -> None:
        async with maker() as bot_db, maker() as person_db:
            row = await seat_row(bot_db, table, IDLE)
            bot = GameContext(await game_row(bot_db, table.game_id), None, row)  # read first
            user = await user_named(person_db, table.people[IDLE].username)
            mine = await seat_row(person_db, table, IDLE)
            person = GameContext(await game_row(person_db, table.game_id), user, mine)
            await do_take_back(person_db, person, table.clock)
            with pytest.raises(Refused):
                await do_act(bot_db, bot, CastVote(IDLE, 1), clock=table.clock)

    run_db(race)
    assert table.state().votes[IDLE] != 1


def test_s42_a_stand_ins_input_is_only_its_seats_view_and_readable_chat(
    host: Person,
    players: list[Person],
    run_db: RunDB,
    app: Litestar,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = record_inputs(monkeypatch)
    table = _stood_in(host, players, run_db, app)
    table.pouch()
    run_bots(table)  # Day 2: the stand-in still plays until the person comes back
    stood_in = [(state, given) for state, seat, given in seen if seat == IDLE]
    assert {state.day for state, _ in stood_in} == {1, 2}
    for state, given in stood_in:
        _check_only_own(state, IDLE, given)


def test_s26_a_secret_save_neither_shows_in_the_stand_ins_start_nor_is_replaced(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    """Whether a stand-in begins is public (S42), so it looks only at public acts: a secret
    save (a Final Cable, an Operation) does not keep it away, and it leaves those saves be."""
    table = _table(host, players, run_db, app)
    idle = table.people[IDLE]
    mine = "Mine, not the bot's."
    assert idle.form(table.path("/final-cable"), {"text": mine}).status_code == 303
    targets = view(table.state(), IDLE)["me"]["options"]["ability_targets"]
    if targets:  # an Operation too, when the seat's role has an ability (S9)
        assert idle.form(table.path("/operation"), {"target": targets[0]}).status_code == 303
    saved = table.state().operations[IDLE]
    bring_stand_ins(table)
    assert [s.seat for s in stand_ins(table)] == [IDLE]  # as for anyone quiet in public
    state = table.state()
    assert state.final_cables[IDLE] == mine  # S32: their own, whatever the bot would write
    assert state.operations[IDLE] == saved
    assert state.votes[IDLE] is not None  # the public part it does play

    async def bot_writes_a_cable(db: AsyncSession) -> None:
        game, row = await game_row(db, table.game_id), await seat_row(db, table, IDLE)
        with pytest.raises(Refused, match="saved this themselves today"):
            await do_act(
                db, GameContext(game, None, row), EditFinalCable(IDLE, "x"), clock=table.clock
            )

    run_db(bot_writes_a_cable)


def test_a_public_act_keeps_the_stand_in_away(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = _table(host, players, run_db, app)
    floor = {"text": "Still here."}
    assert table.people[IDLE].form(table.path("/chat/floor"), floor).status_code == 303
    bring_stand_ins(table)
    assert stand_ins(table) == []
