"""What others may not see must not move what they can see (S26-S31, issue 11).

Every viewer (each seat and a spectator) loads its page; one player does a private act (a Ring
Channel post, a Ring order, a Final Cable edit, an Operation save, a whisper's text); then each
reloads. The page's `data-live-after`, the ids its stream would send and the forms' `version`
must stay as they were for everyone who may not see the act, and move for those who may.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from deaddrop.engine.station.roles import is_ring
from tests.server.station.games import conftest as games
from tests.server.station.games.helpers import Person, Table
from tests.server.station.test_live_lifecycle import Server, context_of
from tests.server.station.test_live_stream import pushed

app, clock, host, make_players = games.app, games.clock, games.host, games.make_players
players, quick_passwords, stranger, table = (
    games.players,
    games.quick_passwords,
    games.stranger,
    games.table,
)

_AFTER = re.compile(r'data-live-after="(\d+)"')
_VERSION = re.compile(r'name="version" value="(\d+)"')
SPECTATOR = -1
"""The viewer behind the spectator link."""


@dataclass(frozen=True)
class Seen:
    """What one viewer's page says of the game as a whole."""

    after: int
    versions: frozenset[str]


def seen(table: Table, viewer: int, stranger: Person) -> Seen:
    """A fresh load of the viewer's Floor and (for a seat) Operations tab."""
    if viewer == SPECTATOR:
        pages = [stranger.get(f"/watch/{table.game().spectator_token}/floor").text]
    else:
        person = table.people[viewer]
        pages = [person.get(table.path(tab)).text for tab in ("/floor", "/operations")]
    found = _AFTER.search(pages[0])
    assert found is not None
    versions = frozenset(v for page in pages for v in _VERSION.findall(page))
    assert viewer == SPECTATOR or versions, "a seat's forms carry a version"
    return Seen(int(found.group(1)), versions)


def ring_seats(table: Table) -> set[int]:
    return {seat for seat, role in enumerate(table.roles) if is_ring(role)}


def informed(table: Table) -> int:
    """A Station seat with an Operation to save on Day 1."""
    return next(s for s, role in enumerate(table.roles) if role in ("analyst", "field_agent"))


def ok(response: object) -> None:
    status = getattr(response, "status_code", None)
    assert status == 200, getattr(response, "text", response)


Act = Callable[[Table], set[int]]
"""Does one private act; returns the seats that may see it."""


def ring_post(table: Table) -> set[int]:
    writer = min(ring_seats(table))
    ok(table.people[writer].json(table.api("/chat/ring"), {"text": "RINGSECRET"}))
    return ring_seats(table)


def ring_order(table: Table) -> set[int]:
    """The Ring order (from Day 2 on: `ready` has sent the first Pouch)."""
    holder = table.state().order_holder
    assert holder is not None
    target = next(s for s in range(6) if s not in ring_seats(table))
    fields = {"target": table.codenames[target], "performer": table.codenames[holder]}
    ok(table.people[holder].json(table.api("/order"), fields))
    return ring_seats(table)  # S10: the living Ring sees the order


def final_cable(table: Table) -> set[int]:
    writer = informed(table)
    ok(table.people[writer].json(table.api("/final-cable"), {"text": "CABLESECRET"}))
    return {writer}


def operation(table: Table) -> set[int]:
    saver = informed(table)
    target = next(s for s in range(6) if s != saver)
    ok(table.people[saver].json(table.api("/operation"), {"target": table.codenames[target]}))
    return {saver}


def whisper_text(table: Table) -> set[int]:
    """A whisper: everyone sees who whispered to whom (S31); the text only its two parties.
    The announcement moves everyone by one: `expected` adds the text for the parties."""
    sender, recipient = 1, 2
    fields = {"recipient": table.codenames[recipient], "text": "WHISPERSECRET"}
    ok(table.people[sender].json(table.api("/whisper"), fields))
    return {sender, recipient}


def ready(table: Table, name: str) -> None:
    """The spectator link on; a Pouch first where the act needs Day 2 (the Ring order, S10)."""
    table.host.form(table.path("/host/spectators"), {"enabled": "yes"})
    if name == "ring order":
        assert table.pouch() == 1


ACTS: dict[str, Act] = {
    "ring post": ring_post,
    "ring order": ring_order,
    "final cable": final_cable,
    "operation": operation,
    "whisper": whisper_text,
}


@pytest.mark.parametrize("name", list(ACTS))
def test_s26_s31_a_private_act_moves_the_cursors_of_those_who_may_see_it_alone(
    name: str, table: Table, stranger: Person, server: Server
) -> None:
    ready(table, name)
    viewers = [*range(6), SPECTATOR]
    before = {viewer: seen(table, viewer, stranger) for viewer in viewers}
    readers = ACTS[name](table)
    public = 1 if name == "whisper" else 0  # the whisper's announcement (S31)
    for viewer in viewers:
        now = seen(table, viewer, stranger)
        may_see = viewer in readers
        moved = public + (1 if may_see else 0) if viewer != SPECTATOR else public
        assert now.after == before[viewer].after + moved, (name, viewer, may_see)
        if viewer == SPECTATOR:
            continue
        # The stream from the old page's cursor: nothing for those who may not see the act,
        # and what it sends (the Floor's region, a badge: one batch) is numbered by the
        # viewer's own count.
        context = context_of(table, table.people[viewer])
        ids = [ident for ident, _ in pushed(server, context, "floor", before[viewer].after)]
        assert ids and set(ids) == {now.after} if moved else ids == [], (name, viewer, ids)


@pytest.mark.parametrize("name", list(ACTS))
def test_s26_s31_a_private_act_moves_no_form_version(
    name: str, table: Table, stranger: Person
) -> None:
    """Stale-write detection must not publish a game-wide counter to every seat."""
    ready(table, name)
    before = {seat: seen(table, seat, stranger).versions for seat in range(6)}
    ACTS[name](table)
    for seat in range(6):  # the actor too: only a Pouch or a removal changes the version
        assert seen(table, seat, stranger).versions == before[seat], (name, seat)


def test_a_public_post_after_private_acts_is_the_next_number_for_everyone(
    table: Table, stranger: Person, server: Server
) -> None:
    ready(table, "ring order")
    viewers = [*range(6), SPECTATOR]
    before = {viewer: seen(table, viewer, stranger) for viewer in viewers}
    for act in (ring_post, ring_order, final_cable, operation):
        act(table)
    ok(table.people[3].json(table.api("/chat/floor"), {"text": "FLOORAFTER"}))
    ring = ring_seats(table)
    for viewer in viewers:
        # The Ring saw its post and its order; the writer of the Final Cable (who saved the
        # Operation too) saw both of its own; nobody else saw anything but the Floor post.
        own = 2 if viewer in ring else 2 if viewer == informed(table) else 0
        assert seen(table, viewer, stranger).after == before[viewer].after + own + 1, viewer


def test_a_huge_last_event_id_is_refused_with_a_message(table: Table) -> None:
    person = table.people[1]
    for headers, query in (
        ({"last-event-id": "99999999999999999999999"}, ""),
        ({}, "&after=99999999999999999999999"),
    ):
        answer = person.get(table.path(f"/events?tab=floor{query}"), headers=headers)
        assert answer.status_code == 400, answer.text
        assert "could not be read" in answer.text  # the themed page, not a dropped stream


def test_a_page_from_before_a_removal_or_a_pouch_is_still_refused_as_stale(
    table: Table, stranger: Person
) -> None:
    seat = informed(table)
    person = table.people[seat]
    [old] = seen(table, seat, stranger).versions
    operation(table)  # private saves in between leave the page good (S7)
    assert person.json(table.api("/vote"), {"vote": "abstain", "version": old}).status_code == 200
    removed = next(s for s in range(1, 6) if s != seat and s not in ring_seats(table))
    fields = {"codename": table.codenames[removed], "confirm": True}
    assert table.host.json(table.api("/host/remove"), fields).status_code == 200
    stale = person.json(table.api("/vote"), {"vote": "abstain", "version": old})
    assert stale.status_code == 409 and "Reload" in stale.json()["detail"]
    [after_removal] = seen(table, seat, stranger).versions
    assert after_removal != old
    assert table.pouch() == 1
    stale = person.json(table.api("/vote"), {"vote": "abstain", "version": after_removal})
    assert stale.status_code == 409
    [fresh] = seen(table, seat, stranger).versions
    answer = person.json(table.api("/vote"), {"vote": "abstain", "version": fresh})
    assert answer.status_code == 200 and answer.json()["version"] == int(fresh)


MARK = "Inactive: saved nothing for two days"


def test_the_inactive_mark_changes_only_at_a_pouch_not_at_a_private_save(
    table: Table,
) -> None:
    quiet = informed(table)
    for _ in range(2):
        for seat, person in enumerate(table.people):
            if seat != quiet:
                person.form(table.path("/vote"), {"vote": "abstain"})
        assert table.pouch() == 1
    roster = {
        seat: person.get(table.path("/roster")).text for seat, person in enumerate(table.people)
    }
    assert all(MARK in page for page in roster.values())
    operation(table)  # the quiet player saves an Operation: private (S7)
    for seat, person in enumerate(table.people):
        assert person.get(table.path("/roster")).text.count(MARK) == roster[seat].count(MARK)
    assert table.pouch() == 1  # the Pouch resolves the saved day: the mark goes, for all
    assert all(MARK not in person.get(table.path("/roster")).text for person in table.people)
