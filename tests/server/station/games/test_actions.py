"""The day's saves through their endpoints, as forms and as JSON: legal, refused, stale."""

from __future__ import annotations

import asyncio

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import ABSTAIN
from deaddrop.engine.station.roles import RINGLEADER, is_ring
from deaddrop.engine.station.state import Ability, Order
from deaddrop.server.station.game.models import StationAction
from tests.server.station.games.helpers import Person, Table, vote_in_own_session


def _ring_other_than(table: Table, seat: int) -> int:
    return next(s for s, role in enumerate(table.roles) if is_ring(role) and s != seat)


def _station_seat(table: Table) -> int:
    return next(s for s, role in enumerate(table.roles) if not is_ring(role))


def test_every_save_through_forms(table: Table) -> None:
    seat = _station_seat(table)
    person, other = table.people[seat], table.codenames[(seat + 1) % 6]
    role = table.roles[seat]
    target = table.codenames[(seat + 1) % 6]
    saved = person.form(table.path("/operation"), {"target": target.lower()})
    assert saved.status_code == 303
    assert saved.headers["location"] == table.path("/operations")
    assert "Operation saved." in person.flashes()
    assert table.state().operations[seat] == Ability((seat + 1) % 6), role
    person.form(table.path("/operation/withdraw"))
    assert table.state().operations[seat] is None
    person.form(table.path("/vote"), {"vote": other})
    assert table.state().votes[seat] == (seat + 1) % 6
    person.form(table.path("/vote"), {"vote": "abstain"})
    assert table.state().votes[seat] == ABSTAIN
    assert person.form(table.path("/vote/withdraw")).headers["location"] == table.path("/floor")
    assert table.state().votes[seat] is None
    cable = person.form(table.path("/final-cable"), {"text": "Tell my mother\r\nI tried."})
    assert cable.headers["location"] == table.path("/dossier")
    assert table.state().final_cables[seat] == "Tell my mother\nI tried."
    person.form(table.path("/done"), {"done": "yes"})
    assert table.state().done[seat]
    person.form(table.path("/done"), {"done": "no"})
    assert not table.state().done[seat]
    back = person.form(table.path("/vote"), {"vote": other, "next": "/games/elsewhere"})
    assert back.headers["location"] == "/games/elsewhere"
    assert table.game().version == 9


def test_the_ring_order_from_day_two(table: Table) -> None:
    leader = table.seat_with(RINGLEADER)
    performer = _ring_other_than(table, leader)
    target = _station_seat(table)
    fields = {"target": table.codenames[target], "performer": table.codenames[performer]}
    refused = table.people[leader].json(table.api("/order"), fields)
    assert refused.status_code == 422
    assert refused.json()["rule"] == "S10"
    assert refused.json()["detail"] == "No Ring order on Day 1 (rule S10: the Ring order)."
    assert table.pouch() == 1
    filed = table.people[leader].json(table.api("/order"), fields)
    assert filed.status_code == 200, filed.text
    assert filed.json()["ok"] is True
    assert table.state().operations[leader] == Order(target, performer)


def test_refusals_come_back_in_plain_words_never_a_500(table: Table) -> None:
    seat = _station_seat(table)
    person = table.people[seat]
    cases = [
        ("/vote", {"vote": "NOBODY"}, 422, "S3", "No player at this table is called NOBODY"),
        ("/vote", {}, 422, None, "Choose a vote."),
        ("/order", {"target": "X", "performer": "Y"}, 422, "S3", "called X"),
        ("/final-cable", {"text": "x" * 2001}, 422, "S32", "at most 2000 characters"),
        ("/final-cable", {"text": "x" * 5000}, 422, None, "A field is too long."),
        ("/vote", {"vote": "abstain", "version": "abc"}, 422, None, "version is malformed"),
    ]
    if table.roles[seat] in ("safehouse_keeper",):
        cases.append(
            ("/operation", {"target": table.codenames[seat]}, 422, "S9", "must name another")
        )
    for tail, fields, status, rule, words in cases:
        response = person.json(table.api(tail), fields)
        assert response.status_code == status, (tail, response.text)
        body = response.json()
        assert body["ok"] is False and body["rule"] == rule, body
        assert words in body["detail"], body
    form = person.form(table.path("/vote"), {"vote": "NOBODY"})
    assert form.status_code == 303 and form.headers["location"] == table.path("/floor")
    assert "No player at this table is called NOBODY (rule S3)." in person.flashes()
    not_json = person.visitor.http.post(
        table.api("/vote"),
        content=b"[1, 2",
        headers={"x-csrftoken": person.token(), "content-type": "application/json"},
    )
    assert not_json.status_code == 422


def test_a_save_from_a_page_older_than_the_pouch_is_stale(table: Table) -> None:
    seat = _station_seat(table)
    person = table.people[seat]
    version = table.game().version
    ok = person.json(table.api("/vote"), {"vote": "abstain", "version": version})
    assert ok.status_code == 200
    # Another save in between does not make the page stale: saves never collide (S7).
    again = person.json(table.api("/vote"), {"vote": table.codenames[0], "version": version})
    assert again.status_code == 200
    table.pouch()
    stale = person.json(table.api("/vote"), {"vote": table.codenames[0], "version": version})
    assert stale.status_code == 409
    assert "Reload" in stale.json()["detail"]
    assert table.state().votes[seat] is None  # nothing landed on Day 2
    stale_form = person.form(table.path("/vote"), {"vote": "abstain", "version": str(version)})
    assert stale_form.status_code == 303
    assert "The game moved on since this page was loaded." in person.flashes()


def test_nothing_is_saved_after_the_deadline_until_the_pouch_has_left(table: Table) -> None:
    person = table.people[_station_seat(table)]
    table.clock.set(table.deadline())
    late = person.json(table.api("/vote"), {"vote": "abstain"})
    assert late.status_code == 409
    assert "Today's Pouch has left" in late.json()["detail"]


def test_the_burned_cannot_act(table: Table) -> None:
    seat = _station_seat(table)
    removed = table.host.json(
        table.api("/host/remove"), {"codename": table.codenames[seat], "confirm": True}
    )
    assert removed.status_code == 200, removed.text
    burned = table.people[seat].json(table.api("/vote"), {"vote": "abstain"})
    assert burned.status_code == 422
    assert burned.json()["rule"] == "S8"
    assert "a burned player can no longer act" in burned.json()["detail"].lower()
    view = table.people[seat].get(table.api()).json()["view"]
    assert view["me"]["alive"] is False


def test_strangers_and_spectators_get_404_everywhere(table: Table, stranger: Person) -> None:
    on = table.host.json(table.api("/host/spectators"), {"enabled": True})
    assert on.status_code == 200
    token = table.game().spectator_token
    assert token is not None
    assert stranger.get(f"/api/watch/{token}").status_code == 200  # may watch …
    posts = [
        "/operation",
        "/order",
        "/operation/withdraw",
        "/vote",
        "/vote/withdraw",
        "/final-cable",
        "/done",
        "/host/pause",
        "/host/resume",
        "/host/extend",
        "/host/replace",
        "/host/remove",
        "/host/spectators",
        "/leave",
        "/kick",
        "/start",
    ]
    for tail in posts:  # … but never act, as a form or as JSON
        fields = {"target": table.codenames[0], "vote": "abstain", "codename": table.codenames[0]}
        assert stranger.form(table.path(tail), fields).status_code == 404, tail
        if not tail.startswith(("/leave", "/kick", "/start")):
            assert stranger.json(table.api(tail), fields).status_code == 404, tail
    for path in (
        table.api(),
        table.path("/lobby"),
        table.path("/host"),
        table.path("/scenario.json"),
        table.path("/scenario"),
    ):
        assert stranger.get(path).status_code == 404, path
    assert stranger.get("/api/games/no-such-game").json()["status_code"] == 404
    assert stranger.get("/api/watch/not-the-token").status_code == 404
    assert table.game().version == 0  # nothing the stranger sent was stored


def test_only_the_host_uses_the_host_tools(table: Table) -> None:
    player = table.people[1]
    assert player.get(table.path("/host")).status_code == 403
    assert player.json(table.api("/host/pause")).status_code == 403
    assert table.host.get(table.path("/host")).status_code == 200


def test_simultaneous_saves_on_one_game_all_land_one_after_another(table: Table) -> None:
    async def burst(_db: AsyncSession) -> list[int]:
        votes = [
            vote_in_own_session(table, seat, (seat + round_) % 6)
            for round_ in range(5)
            for seat in range(6)
        ]
        return list(await asyncio.gather(*votes))

    versions = table.run_db(burst)
    assert sorted(versions) == list(range(1, 31))  # one writer at a time, none lost
    game = table.game()
    assert game.version == 30

    async def log(db: AsyncSession) -> list[int]:
        rows = await db.scalars(
            select(StationAction.seq)
            .where(StationAction.game_id == game.id)
            .order_by(StationAction.seq)
        )
        return list(rows)

    assert table.run_db(log) == list(range(1, 31))
