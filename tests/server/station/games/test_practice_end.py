"""Once the person is burned: Jump to the end plays the bots out and opens every secret (S26);
before the end a practice page shows nothing of the bots' roles (S42, issue 14)."""

from __future__ import annotations

import json
import re

import pytest
from litestar import Litestar
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.state import State
from deaddrop.engine.station.views import view
from deaddrop.server.station.bot_seats import runner as runner_module
from deaddrop.server.station.bot_seats.runner import BotRunner
from deaddrop.server.station.bot_seats.seat_input import SeatInput, seat_input
from deaddrop.server.station.tabs.roles_text import role_name
from tests.server.station.games.bot_helpers import lock_the_first_carry_out, run_bots
from tests.server.station.games.helpers import Person, RunDB, Table
from tests.server.station.games.practice_helpers import burn_the_person, practise

TABS = ("cable", "floor", "operations", "roster", "dossier")
REVEALED = re.compile(r'class="revealed"')


def test_s26_jump_to_the_end_plays_the_bots_out_and_reveals_everything(
    host: Person, run_db: RunDB, app: Litestar
) -> None:
    table = practise(host, run_db, app, players=8, level="random")
    run_bots(table)
    burn_the_person(table)
    page = host.get(table.path("/cable")).text
    assert "Jump to the end" in page and "Archive" in page
    response = host.form(table.path("/practice/jump"))
    assert response.status_code == 303
    state = table.state()
    assert state.over and table.game().status == "over"
    assert state.day <= 10  # S24: Day 10's Pouch at the latest
    roster = host.get(table.path("/roster")).text
    assert len(REVEALED.findall(roster)) == 8  # S26: every role, the bots' included
    assert "Jump to the end" not in roster
    full = view(state, 0)
    assert full["over"] and len(full["reveal"]["roles"]) == 8


def test_a_jump_goes_on_after_a_bot_seat_fails_for_a_moment(
    host: Person, run_db: RunDB, app: Litestar, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def idle(_runner: BotRunner) -> int:
        return 0

    # The app's own bot runner sits still: Day 1 is left to the jump, which meets the failure
    # (the bots not done, no Pouch leaves before it).
    monkeypatch.setattr(BotRunner, "run_once", idle)
    failures = lock_the_first_carry_out(monkeypatch)
    table = practise(host, run_db, app, players=6, level="heuristic")
    burn_the_person(table)
    assert table.state().day == 1 and failures
    assert host.form(table.path("/practice/jump")).status_code == 303
    assert not failures  # it failed once, and the jump went on to the end
    assert table.state().over and table.game().status == "over"


def test_jump_to_the_end_is_refused_while_the_person_is_alive(
    host: Person, run_db: RunDB, app: Litestar
) -> None:
    table = practise(host, run_db, app)
    assert "Jump to the end" not in host.get(table.path("/cable")).text
    refused = host.json(table.api("/practice/jump"))
    assert refused.status_code == 422
    assert "still in the game" in refused.json()["detail"]
    assert not table.state().over


def test_jump_to_the_end_is_refused_in_a_game_that_is_not_practice(table: Table) -> None:
    refused = table.host.json(table.api("/practice/jump"))
    assert refused.status_code == 422
    assert "practice game" in refused.json()["detail"]


@pytest.mark.parametrize("level", ["random", "expert"])
def test_s42_a_practice_page_leaks_no_bot_role_before_the_end(
    host: Person, stranger: Person, run_db: RunDB, app: Litestar, level: str
) -> None:
    table = practise(host, run_db, app, players=9, level=level)
    run_bots(table)
    state = table.state()
    seen = view(state, 0)
    assert host.get(table.api()).json()["view"] == seen  # the person's JSON: their view only
    mates = (seen.get("ring") or {}).get("members", [])
    known = {table.codenames[0], *(mate["codename"] for mate in mates)}  # S5
    hidden = [seat for seat in range(1, 9) if table.codenames[seat] not in known]
    assert hidden  # at nine players, at least six seats are strangers to anyone
    for tab in TABS:
        page = host.get(table.path(f"/{tab}")).text
        assert not REVEALED.search(page)  # no role revealed on any tab before the end
        for seat in hidden:
            for role in (table.roles[seat], role_name(table.roles[seat])):
                assert f"{table.codenames[seat]} ({role})" not in page
        assert stranger.get(table.path(f"/{tab}")).status_code == 404  # an outsider: nothing
    assert stranger.get(table.api()).status_code == 404


def test_s42_the_bots_of_a_jump_see_their_own_view_only(
    host: Person, run_db: RunDB, app: Litestar, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, dict[str, object], dict[str, object]]] = []

    async def recording(db: AsyncSession, game_id: int, state: State, seat: int) -> SeatInput:
        given = await seat_input(db, game_id, state, seat)
        seen.append((seat, dict(given.seen), json.loads(json.dumps(view(state, seat)))))
        return given

    monkeypatch.setattr(runner_module, "seat_input", recording)
    table = practise(host, run_db, app, players=7, level="expert")
    burn_the_person(table)
    assert host.form(table.path("/practice/jump")).status_code == 303
    assert table.state().over
    assert seen and {seat for seat, _, _ in seen} <= set(range(1, 7))  # never the person's
    for _, given, own in seen:
        assert given == own  # each bot's input: its own seat's view, nothing more


def test_once_burned_the_days_advance_by_themselves_with_the_bots_done(
    host: Person, run_db: RunDB, app: Litestar
) -> None:
    table = practise(host, run_db, app, players=6, level="heuristic")
    burn_the_person(table)
    assert "Archive" in host.get(table.path("/floor")).text  # a burned player reads it (S30)
    start = table.clock.now()
    for _ in range(10):  # S24: Day 10's Pouch at the latest
        run_bots(table)  # the bots decide and are done: S41 sends the Pouch at once
        if table.state().over:
            break
        assert table.run() == 1
    assert table.state().over and table.clock.now() == start  # no deadline was waited for
