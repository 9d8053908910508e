"""The host hands a seat to a bot (S40 replacement, the newcomer a bot of a chosen level): the
player loses the seat like anyone replaced, the Roster shows "Bot (level)", the bot plays."""

from __future__ import annotations

import pytest
from litestar import Litestar

from tests.server.station.games.bot_helpers import run_bots, saves_today
from tests.server.station.games.helpers import Person, RunDB, Table
from tests.server.station.games.standin_helpers import (
    bot_level_of,
    bring_stand_ins,
    stand_ins,
    standin_table,
)
from tests.server.station.games.standin_helpers import (
    same_deal as same_deal,
)

pytestmark = pytest.mark.usefixtures("same_deal")  # one deal (S4): the bots play alike each run

SEAT = 1
"""players[0]'s seat; seat 5 is a bot seat from the lobby."""


def _table(host: Person, players: list[Person], run_db: RunDB, app: Litestar) -> Table:
    return standin_table(host, players[:4], ["random"], run_db, app)


def _hand(person: Person, table: Table, seat: int, level: str = "expert") -> Person:
    """Post the hand-to-bot form as `person`; returns them for chaining."""
    fields = {"codename": table.codenames[seat], "level": level}
    assert person.form(table.path("/host/hand-to-bot"), fields).status_code == 303
    return person


def test_s40_the_host_hands_a_seat_to_a_bot_and_the_player_loses_it(
    host: Person, players: list[Person], stranger: Person, run_db: RunDB, app: Litestar
) -> None:
    table = _table(host, players, run_db, app)
    page = host.get(table.path("/standins")).text
    assert "Hand a seat to a bot" in page and table.codenames[SEAT] in page
    offered = page[page.index("f-handover-codename") :]
    for seat in (0, 5):  # neither the host's own seat nor a bot's is offered
        assert f'value="{table.codenames[seat]}"' not in offered
    assert "Seat handed to a bot" in _hand(host, table, SEAT).flashes()
    assert bot_level_of(table, SEAT) == "expert"
    former = table.people[SEAT]
    assert former.get(table.path("/floor")).status_code == 404  # like anyone replaced
    assert former.json(table.api("/vote"), {"vote": "abstain"}).status_code == 404
    for person in (host, table.people[2]):
        roster = person.get(table.path("/roster")).text
        assert "Bot (expert)" in roster
        cable = " ".join(person.get(table.path("/cable")).text.split())
        assert f"handed {table.codenames[SEAT]}&#39;s desk to a bot (expert)" in cable
    assert stranger.get(table.path("/roster")).status_code == 404
    run_bots(table)
    assert any(a.get("seat") == SEAT for a in saves_today(table))  # the bot plays it now


def test_s40_a_non_host_may_not_hand_a_seat_to_a_bot(
    host: Person, players: list[Person], stranger: Person, run_db: RunDB, app: Litestar
) -> None:
    table = _table(host, players, run_db, app)
    player = table.people[2]
    fields = {"codename": table.codenames[SEAT], "level": "expert"}
    refused = player.json(table.api("/host/hand-to-bot"), fields)
    assert refused.status_code == 403
    assert refused.json()["rule"] == "S40" and "S40" in refused.json()["detail"]
    assert "rule S40" in _hand(player, table, SEAT).flashes()
    assert stranger.json(table.api("/host/hand-to-bot"), fields).status_code == 404
    assert bot_level_of(table, SEAT) is None


def test_hand_to_bot_refuses_bad_seats_and_levels_with_a_4xx(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = _table(host, players, run_db, app)
    cases = [
        ({"codename": "NOBODY", "level": "expert"}, "codename"),
        ({"codename": table.codenames[SEAT], "level": "genius"}, "Choose a bot level"),
        ({"codename": table.codenames[SEAT]}, "Choose a bot level"),
        ({"codename": table.codenames[0], "level": "expert"}, "their own seat"),
        ({"codename": table.codenames[5], "level": "expert"}, "A bot's seat"),
    ]
    for fields, says in cases:
        answer = host.json(table.api("/host/hand-to-bot"), fields)
        assert answer.status_code == 422 and says in answer.json()["detail"], fields
    assert bot_level_of(table, SEAT) is None


def test_handing_a_stood_in_seat_to_a_bot_ends_the_stand_in(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = _table(host, players, run_db, app)
    bring_stand_ins(table)
    assert bot_level_of(table, SEAT) == "heuristic"  # nobody saved: all four stood in
    _hand(host, table, SEAT, "random")
    assert bot_level_of(table, SEAT) == "random"
    (ended,) = [s for s in stand_ins(table) if s.seat == SEAT]
    assert ended.back_day == 1 and ended.ended_at is not None
