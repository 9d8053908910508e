"""Setup rules S1–S5: the role table, join order, codenames, the seeded deal, Ring knowledge."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station.setup import Setup, setup_from_deal, start
from deaddrop.engine.station.views import view

from .helpers import Table

# S1, copied from docs/rules/station.md rather than imported, so the engine's table is checked.
S1_TABLE = {
    6: ["ringleader", "forger", "analyst", "safehouse_keeper", "field_agent", "field_agent"],
    7: [
        "ringleader", "forger", "analyst", "safehouse_keeper", "watcher", "field_agent",
        "field_agent",
    ],
    8: [
        "ringleader", "forger", "analyst", "safehouse_keeper", "watcher", "field_agent",
        "field_agent", "defector",
    ],
    9: [
        "ringleader", "forger", "honeytrap", "analyst", "safehouse_keeper", "watcher",
        "interrogator", "field_agent", "field_agent",
    ],
    10: [
        "ringleader", "forger", "honeytrap", "analyst", "safehouse_keeper", "watcher",
        "interrogator", "shadow", "field_agent", "defector",
    ],
}  # fmt: skip

FACTIONS = {
    "ringleader": "ring",
    "forger": "ring",
    "honeytrap": "ring",
    "defector": "neutral",
}


def players(count: int) -> tuple[str, ...]:
    """Account names that must never show during play (S3)."""
    return tuple(f"account-{i}" for i in range(count))


@pytest.mark.parametrize("count", sorted(S1_TABLE))
def test_s1_every_deal_has_exactly_the_table_roles(count: int) -> None:
    for seed in range(40):
        state = start(Setup(players(count), seed))
        assert Counter(seat.role for seat in state.seats) == Counter(S1_TABLE[count])


@pytest.mark.parametrize("count", sorted(S1_TABLE))
def test_s1_factions_follow_the_roles(count: int) -> None:
    state = start(Setup(players(count), 7))
    for seat in state.seats:
        assert seat.faction.value == FACTIONS.get(seat.role, "station")


@pytest.mark.parametrize("count", [0, 1, 5, 11, 12])
def test_s1_only_6_to_10_players(count: int) -> None:
    with pytest.raises(IllegalAction) as caught:
        start(Setup(players(count), 1))
    assert caught.value.code == "S1"


def test_s1_a_fixed_deal_must_match_the_table() -> None:
    wrong = [("OWL", "ringleader"), ("RAVEN", "forger"), ("HERON", "analyst")]
    wrong += [("WREN", "safehouse_keeper"), ("KITE", "watcher"), ("LARK", "field_agent")]
    with pytest.raises(IllegalAction) as caught:
        start(setup_from_deal(wrong))
    assert caught.value.code == "S1"


def test_s1_no_other_roles_exist() -> None:
    deal = [("OWL", "ringleader"), ("RAVEN", "forger"), ("HERON", "analyst")]
    deal += [("WREN", "safehouse_keeper"), ("KITE", "field_agent"), ("LARK", "jester")]
    with pytest.raises(IllegalAction) as caught:
        start(setup_from_deal(deal))
    assert caught.value.code == "S1"


def test_s2_seats_keep_the_join_order() -> None:
    joined = ("zoe", "adam", "mia", "bob", "eve", "carl", "dan")
    state = start(Setup(joined, 3))
    assert [seat.player for seat in state.seats] == list(joined)
    assert [seat.index for seat in state.seats] == list(range(7))


@pytest.mark.parametrize("count", sorted(S1_TABLE))
def test_s3_codenames_are_distinct_upper_case_birds(count: int) -> None:
    for seed in range(40):
        codenames = [seat.codename for seat in start(Setup(players(count), seed)).seats]
        assert len(set(codenames)) == count
        assert all(name.isalpha() and name == name.upper() for name in codenames)


def test_s3_the_game_shows_codenames_not_account_names() -> None:
    state = start(Setup(players(10), 5))
    for viewer in [None, *range(10)]:
        text = json.dumps(view(state, viewer))
        assert "account-" not in text


@pytest.mark.parametrize(
    "codename",
    ["owl", "OWL2", "", "SNOWY OWL"],
)
def test_s3_a_fixed_deal_needs_upper_case_one_word_codenames(codename: str) -> None:
    deal = [(codename, "ringleader"), ("RAVEN", "forger"), ("HERON", "analyst")]
    deal += [("WREN", "safehouse_keeper"), ("KITE", "field_agent"), ("LARK", "field_agent")]
    with pytest.raises(IllegalAction) as caught:
        start(setup_from_deal(deal))
    assert caught.value.code == "S3"


def test_s3_a_fixed_deal_needs_distinct_codenames() -> None:
    deal = [("OWL", "ringleader"), ("RAVEN", "forger"), ("HERON", "analyst")]
    deal += [("WREN", "safehouse_keeper"), ("OWL", "field_agent"), ("LARK", "field_agent")]
    with pytest.raises(IllegalAction) as caught:
        start(setup_from_deal(deal))
    assert caught.value.code == "S3"


def test_s4_the_same_seed_deals_the_same_game() -> None:
    for seed in (0, 1, 2**40, -5):
        first = start(Setup(players(10), seed))
        second = start(Setup(players(10), seed))
        assert first == second


def test_s4_the_seed_is_stored_with_the_game() -> None:
    assert start(Setup(players(8), 123456)).seed == 123456


def test_s4_different_seeds_deal_differently() -> None:
    deals = {
        tuple((seat.codename, seat.role) for seat in start(Setup(players(8), seed)).seats)
        for seed in range(30)
    }
    assert len(deals) == 30


def test_s4_every_seat_can_get_every_role() -> None:
    seen: dict[int, set[str]] = {seat: set() for seat in range(6)}
    for seed in range(300):
        for seat in start(Setup(players(6), seed)).seats:
            seen[seat.index].add(seat.role)
    assert all(roles == set(S1_TABLE[6]) for roles in seen.values())


def test_s5_ring_members_see_each_other_from_the_start() -> None:
    t = Table(10)
    expected = [
        {"codename": t.codename(name), "role": name, "alive": True}
        for name in ("ringleader", "forger", "honeytrap")
    ]
    for member in ("ringleader", "forger", "honeytrap"):
        assert t.view(member)["ring"]["members"] == expected


def test_s5_no_one_else_sees_the_ring() -> None:
    t = Table(10)
    for name in t.names:
        if name not in ("ringleader", "forger", "honeytrap"):
            mine = t.view(name)
            assert "ring" not in mine
            assert mine["me"]["role"] == name
    assert "ring" not in t.view(None)
