"""No tab shows a viewer what the engine hides from them (issue 4, Security; S5, S10, S19, S31).

Two kinds of test over games of 6, 8 and 10 players at many moments, for every seat and a
spectator: every secret of the game is a unique marker that must not appear in a page it is
hidden from, and a page must not change when everything hidden from its viewer changes
("blurring" the state: other seats' roles swapped, texts, saves and results replaced).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

import pytest

from deaddrop.engine.station.claims import ROLE_NAMES
from deaddrop.engine.station.roles import ROLE_TABLE, is_ring
from deaddrop.engine.station.state import Order, PouchRecord, State, Whisper
from deaddrop.engine.station.views import view
from deaddrop.server.station.tabs.context import TABS, tabs_for
from deaddrop.server.station.tabs.roles_text import ROLE_TEXT, result_sentence
from tests.server.station.tabs_fixtures import (
    Moment,
    final_cable_marker,
    game_info,
    random_moments,
    removal_moment,
    render,
    scripted_moments,
)

ALL_TABS = tuple(name for name, _ in TABS)


def moments() -> Iterator[Moment]:
    """Scripted moments, a removal, and random games of 6, 8 and 10 (a few days and the end)."""
    yield from scripted_moments()
    yield removal_moment()
    for players, seed in ((6, 11), (8, 12), (10, 13), (10, 21)):
        for moment in random_moments(players, seed):
            if moment.state.day in (1, 2, 4) or moment.state.over:
                yield moment


MOMENTS = list(moments())
IDS = [moment.name for moment in MOMENTS]


def viewers(state: State) -> list[int | None]:
    """Every seat and a spectator."""
    return [*range(len(state.seats)), None]


def pages(state: State, seat: int | None) -> dict[str, str]:
    """Every tab this viewer may open, rendered."""
    info = game_info(state, seat)
    return {tab: render(tab, state, seat) for tab in tabs_for(info)}


def all_whispers(state: State) -> list[tuple[int, int, str]]:
    """(sender, recipient, text) of every whisper so far."""
    earlier = [w for record in state.history for w in record.whispers]
    return [(w.sender, w.recipient, w.text) for w in (*earlier, *state.whispers)]


def results_of(state: State, seat: int) -> set[str]:
    """A seat's private results as the Dossier words them."""
    return {
        result_sentence(result)
        for day in view(state, seat)["me"]["results"]
        for result in day["results"]
    }


def ring_sees(state: State, viewer: int | None, other: int) -> bool:
    """S5: whether the viewer knows the other seat's role before the end."""
    return viewer == other or (
        viewer is not None
        and is_ring(state.seats[viewer].role)
        and is_ring(state.seats[other].role)
    )


@pytest.mark.parametrize("moment", MOMENTS, ids=IDS)
def test_no_page_shows_another_seats_secret_text(moment: Moment) -> None:
    state = moment.state
    for viewer in viewers(state):
        html = "\n".join(pages(state, viewer).values())
        own_results = results_of(state, viewer) if viewer is not None else set()
        if not state.over:  # S3: people hide behind codenames until the end
            assert "Person " not in html
        for sender, recipient, text in all_whispers(state):
            party = viewer in (sender, recipient)
            if not (party or (state.over and viewer is not None)):  # S31, S26
                assert text not in html, (viewer, text)
        for seat in state.seats:
            other = seat.index
            if other == viewer:
                continue
            if state.alive[other]:  # S32: published only with a death
                assert final_cable_marker(seat.codename) not in html, (viewer, seat.codename)
            if not state.over or viewer is None:  # S19; S26 opens them to players only
                for sentence in results_of(state, other) - own_results:
                    assert sentence not in html, (viewer, seat.codename, sentence)


@pytest.mark.parametrize("moment", MOMENTS, ids=IDS)
def test_ring_secrets_only_for_the_ring(moment: Moment) -> None:
    state = moment.state
    for viewer in viewers(state):
        html = "\n".join(pages(state, viewer).values())
        ring = viewer is not None and is_ring(state.seats[viewer].role)
        if not ring:  # S5, S10
            assert "Members of the Ring" not in html
            assert "The Ring's order" not in html
            assert "Current Ring order" not in html
            assert "Liquidate " not in html
            assert "order is held by" not in html


@pytest.mark.parametrize("moment", [m for m in MOMENTS if not m.state.over], ids=str)
def test_before_the_end_no_page_names_a_role_its_viewer_may_not_know(moment: Moment) -> None:
    state = moment.state
    for viewer in viewers(state):
        allowed: set[str] = set()
        if viewer is not None:
            own = ROLE_TEXT[state.seats[viewer].role]
            text = " ".join((own.choose, *own.remember, own.name))
            allowed = {t.name for t in ROLE_TEXT.values() if t.name in text}
            allowed |= {
                ROLE_TEXT[s.role].name for s in state.seats if ring_sees(state, viewer, s.index)
            }
        for tab, page in pages(state, viewer).items():
            html = without_role_choices(page, state)
            for role in ROLE_TEXT.values():
                if role.name not in allowed:
                    # The Dossier links to How to play; no page names a role it may not know.
                    assert role.name not in html, (viewer, tab, role.name)


_ROLE_SELECT = re.compile(r'<select[^>]*name="role">(.*?)</select>', re.DOTALL)


def without_role_choices(html: str, state: State) -> str:
    """The page without the claim form's "I am ROLE" list (S43), which must be exactly the roles
    of this table size: the S1 table is public, so it names no role a viewer may not know."""
    table = {ROLE_NAMES[role] for role in ROLE_TABLE[len(state.seats)]}
    for options in _ROLE_SELECT.findall(html):
        assert set(re.findall(r">([^<]+)</option>", options)) == table
    return _ROLE_SELECT.sub("", html)


def blur(state: State, viewer: int | None) -> State:
    """The same game with everything hidden from `viewer` changed (before the end)."""
    seats = list(state.seats)
    groups: dict[tuple[object, ...], list[int]] = {}
    for seat in state.seats:
        if viewer is not None and ring_sees(state, viewer, seat.index):
            continue
        # S23: a burned seat's faction is public; a living one's is not.
        key = ("alive",) if state.alive[seat.index] else ("dead", seat.faction)
        groups.setdefault(key, []).append(seat.index)
    for members in groups.values():  # rotate the roles within each group
        roles = [state.seats[i].role for i in members]
        for i, role in zip(members, roles[1:] + roles[:1], strict=True):
            seats[i] = dataclasses.replace(seats[i], role=role, player=f"someone-{i}")

    def hidden(*parties: int) -> bool:
        return viewer not in parties

    def whispers(items: tuple[Whisper, ...]) -> tuple[Whisper, ...]:
        return tuple(
            dataclasses.replace(w, text="BLURRED") if hidden(w.sender, w.recipient) else w
            for w in items
        )

    def record(r: PouchRecord) -> PouchRecord:
        return dataclasses.replace(
            r,
            operations=tuple(None for _ in r.operations),
            order_holder=None,
            liquidation=None,
            cancelled=frozenset(),
            detained=None,
            interrogation=r.interrogation if not hidden(*(r.interrogation or ())) else None,
            results=tuple((s, res) for s, res in r.results if s == viewer),
            whispers=whispers(r.whispers),
        )

    own_role = state.seats[viewer].role if viewer is not None else None
    ring_viewer = own_role is not None and is_ring(own_role)
    return dataclasses.replace(
        state,
        seats=tuple(seats),
        operations=tuple(
            op
            if s == viewer or (ring_viewer and isinstance(op, Order) and s == state.order_holder)
            else None
            for s, op in enumerate(state.operations)
        ),
        whispers=whispers(state.whispers),
        final_cables=tuple(
            text if s == viewer or not state.alive[s] else "BLURRED"
            for s, text in enumerate(state.final_cables)
        ),
        # S9: whom the Interrogator detained last matters to the Interrogator's options alone.
        last_detained=state.last_detained if own_role == "interrogator" else None,
        interrogation=state.interrogation if not hidden(*(state.interrogation or ())) else None,
        history=tuple(record(r) for r in state.history),
    )


@pytest.mark.parametrize("moment", [m for m in MOMENTS if not m.state.over], ids=str)
def test_pages_do_not_change_when_hidden_things_change(moment: Moment) -> None:
    state = moment.state
    for viewer in viewers(state):
        blurred = blur(state, viewer)
        assert pages(blurred, viewer) == pages(state, viewer), (moment.name, viewer)
