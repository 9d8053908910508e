"""The JSON views hold exactly the engine's view for their viewer; a whole game and its file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.bots.station.random_bot import choose_day
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import SendWhisper, State
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.roles import is_ring
from deaddrop.engine.station.scenario import adjudicate, pouch_json
from deaddrop.engine.station.views import view
from deaddrop.server.station.game.access import access_game_for_player
from deaddrop.server.station.play.service import do_act
from tests.server.station.games.helpers import Person, Table, user_named


def _json(data: Any) -> Any:
    return json.loads(json.dumps(data))


def cable_marker(codename: str) -> str:
    """A Final Cable no other text contains."""
    return f"FINALCABLE{codename}END"


def whisper(table: Table, sender: int, recipient: int, text: str) -> None:
    """Send a whisper through the service (its page comes with chat in the next issue)."""

    async def send(db: AsyncSession) -> None:
        user = await user_named(db, table.people[sender].username)
        context = await access_game_for_player(db, table.game_id, user)
        await do_act(db, context, SendWhisper(sender, recipient, text), clock=table.clock)

    table.run_db(send)


def test_each_seat_sees_exactly_its_view_and_spectators_only_public_things(
    table: Table, stranger: Person
) -> None:
    for seat, person in enumerate(table.people):
        person.form(table.path("/final-cable"), {"text": cable_marker(table.codenames[seat])})
        options = person.get(table.api()).json()["view"]["me"]["options"]
        if options["ability_targets"]:
            person.json(table.api("/operation"), {"target": options["ability_targets"][-1]})
    whisper(table, 0, 1, "WHISPERZERO")
    whisper(table, 2, 3, "WHISPERTWO")
    table.pouch()
    table.host.form(table.path("/host/spectators"), {"enabled": "yes"})
    state = table.state()
    texts = {"WHISPERZERO": {0, 1}, "WHISPERTWO": {2, 3}}
    for seat, person in enumerate(table.people):
        got = person.get(table.api()).json()["view"]
        assert got == _json(view(state, seat))
        raw = json.dumps(got)
        for other in range(6):
            marker = cable_marker(table.codenames[other])
            assert (marker in raw) == (other == seat or not state.alive[other])
        for text, parties in texts.items():
            assert (text in raw) == (seat in parties)
        assert got["me"]["role"] == table.roles[seat]
        assert all("role" not in entry for entry in got["roster"])
        ring = {table.codenames[s] for s, role in enumerate(table.roles) if is_ring(role)}
        if is_ring(table.roles[seat]):  # S5: the Ring knows itself
            assert {m["codename"] for m in got["ring"]["members"]} == ring
        else:
            assert "ring" not in got
            assert "ringleader" not in raw and "forger" not in raw
    token = table.game().spectator_token
    public = stranger.get(f"/api/watch/{token}").json()
    assert public["view"] == _json(view(state, None))
    assert "me" not in public["view"] and public["game"]["seat"] is None
    raw = json.dumps(public)
    assert "WHISPER" not in raw
    assert all(r not in raw for r in ("ringleader", "forger", "analyst", "field_agent"))


def _play_day(table: Table, state: State, rng: Rng) -> Rng:
    """Every living seat saves what a random bot picks, through the JSON endpoints."""
    seat_of = {seat.codename: seat.index for seat in state.seats}
    for seat in state.living():
        me = table.people[seat].get(table.api()).json()["view"]["me"]
        chosen, rng = choose_day(me, seat_of, seat, rng)
        for action in chosen:
            name = state.seats
            if isinstance(action, A.SaveOrder):
                fields = {
                    "target": name[action.target].codename,
                    "performer": name[action.performer].codename,
                }
                response = table.people[seat].json(table.api("/order"), fields)
            elif isinstance(action, A.SaveOperation):
                fields = {"target": name[action.target].codename}
                response = table.people[seat].json(table.api("/operation"), fields)
            elif isinstance(action, A.CastVote):
                choice = "abstain" if action.choice < 0 else name[action.choice].codename
                response = table.people[seat].json(table.api("/vote"), {"vote": choice})
            else:
                continue  # whispers have no page until chat arrives
            assert response.status_code == 200, response.text
    return rng


@pytest.mark.parametrize("seed", [3])
def test_a_whole_game_to_the_end_and_its_scenario_file_replays(
    table: Table, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = Rng.from_seed(seed)
    assert table.people[0].get(table.path("/scenario.json")).status_code == 409
    while not (state := table.state()).over:
        rng = _play_day(table, state, rng)
        assert table.pouch() == 1
    game = table.game()
    assert game.status == "over" and game.winner == state.winner and game.deadline is None
    assert table.run() == 0
    download = table.people[3].get(table.path("/scenario.json"))
    assert download.status_code == 200
    assert "attachment" in download.headers["content-disposition"]
    scenario = download.json()
    expected = [pouch_json(state, record) for record in state.history]
    assert adjudicate(scenario)["days"] == expected
    assert adjudicate(scenario)["winner"] == state.winner
    from deaddrop.cli import main

    path = tmp_path / "game.json"
    path.write_text(download.text, encoding="utf-8")
    capsys.readouterr()
    assert main(["station", "adjudicate", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["days"] == expected
    names = [s["display_name"] for s in table.people[1].get(table.api()).json()["game"]["seats"]]
    assert names[0] == "Alice Liddell"  # S26: after the end, the people behind the codenames
