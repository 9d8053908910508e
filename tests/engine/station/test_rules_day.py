"""The day, S6–S12: days, defaults, who acts, targets, the Ring order, the heir, the performer."""

from __future__ import annotations

import pytest

from deaddrop.engine.station import actions as A
from deaddrop.engine.station.state import ABSTAIN

from .helpers import Table

RING_9 = ["ringleader", "honeytrap", "forger", "analyst", "safehouse_keeper", "watcher"]
RING_9 += ["interrogator", "field_agent", "field_agent"]
"""A 9-player table where the Honeytrap joined before the Forger (S2, S11)."""


# --- S6 Days ---------------------------------------------------------------------------------


def test_s6_day_1_starts_with_the_game() -> None:
    t = Table(6)
    assert t.state.day == 1
    assert t.view(None)["cables"] == []
    assert not t.state.over


def test_s6_each_pouch_starts_the_next_day() -> None:
    t = Table(6)
    for day in range(1, 10):
        assert t.pouch().day == day
        assert t.state.day == day + 1
        assert not t.state.over


def test_s6_day_10_pouch_is_the_last() -> None:
    t = Table(7)
    pouches = t.skip(10)
    assert [p.winner for p in pouches] == [None] * 9 + ["ring"]
    assert t.state.over and t.state.day == 10
    assert t.refused(A.ResolvePouch()) == "S24"


# --- S7 Defaults ------------------------------------------------------------------------------


def test_s7_no_saved_operation_is_no_action() -> None:
    t = Table(7)
    t.op("watcher", "analyst")
    p = t.pouch()
    assert p.result("analyst") == []
    assert p.role_result("watcher") == {"kind": "watcher", "target": "analyst", "visitors": []}


def test_s7_no_saved_vote_is_abstain() -> None:
    t = Table(8)
    t.vote("analyst", "forger")
    assert t.pouch().tally == {"forger": 1, "abstain": 7}


def test_s7_only_the_last_saved_operation_counts() -> None:
    t = Table(6)
    t.op("analyst", "forger")
    t.op("analyst", "safehouse_keeper")
    t.op("analyst", "field_agent")
    assert t.pouch().result("analyst") == [
        {"kind": "analyst", "target": "field_agent", "reading": "CLEAR"}
    ]


def test_s7_a_withdrawn_operation_is_no_action() -> None:
    t = Table(7)
    t.op("analyst", "forger")
    t.withdraw("analyst")
    t.op("watcher", "forger")
    p = t.pouch()
    assert p.result("analyst") == []
    assert p.role_result("watcher") == {"kind": "watcher", "target": "forger", "visitors": []}


def test_s7_only_the_last_saved_vote_counts() -> None:
    t = Table(6)
    t.votes("forger", "analyst", "field_agent")
    t.vote("analyst", "field_agent_2")
    t.vote("analyst", "abstain")
    t.vote("field_agent", "ringleader")
    assert t.pouch().tally == {"ringleader": 1, "abstain": 5}


def test_s7_a_withdrawn_vote_is_abstain() -> None:
    t = Table(6)
    t.votes("forger", "analyst", "field_agent", "field_agent_2")
    t.unvote("analyst")
    t.unvote("field_agent")
    p = t.pouch()
    assert p.tally == {"forger": 1, "abstain": 5}
    assert p.recalled is None


def test_s7_a_changed_or_withdrawn_order_counts_last() -> None:
    t = Table(6)
    t.skip()
    t.order("ringleader", target="analyst", performer="forger")
    t.order("ringleader", target="field_agent", performer="ringleader")
    assert t.pouch().deaths == {"field_agent": ["liquidated"]}
    t.order("ringleader", target="analyst", performer="forger")
    t.withdraw("ringleader")
    assert t.pouch().deaths == {}


def test_s7_saves_reset_at_each_pouch() -> None:
    t = Table(6)
    t.op("analyst", "forger")
    t.vote("analyst", "forger")
    t.pouch()
    me = t.view("analyst")["me"]
    assert me["operation"] is None and me["vote"] is None
    p = t.pouch()
    assert p.result("analyst") == [] and p.tally == {"abstain": 6}


# --- S8 Who acts ------------------------------------------------------------------------------


def _burn_analyst(t: Table) -> None:
    t.votes("analyst", "ringleader", "forger", "field_agent")
    assert t.pouch().deaths == {"analyst": ["recalled"]}


def test_s8_dead_players_cannot_act() -> None:
    t = Table(6)
    _burn_analyst(t)
    seat, other = t.seat("analyst"), t.seat("forger")
    for action in (
        A.SaveOperation(seat, other),
        A.WithdrawOperation(seat),
        A.CastVote(seat, other),
        A.CastVote(seat, ABSTAIN),
        A.WithdrawVote(seat),
        A.SendWhisper(seat, other, "from beyond"),
    ):
        assert t.refused(action) == "S8"
    assert t.refused(A.EditFinalCable(seat, "too late")) == "S32"


def test_s8_a_dead_order_holder_cannot_file_the_order() -> None:
    t = Table(6)
    t.votes("ringleader", "analyst", "safehouse_keeper", "field_agent")
    t.pouch()
    dead = t.seat("ringleader")
    assert t.refused(A.SaveOrder(dead, t.seat("analyst"), t.seat("forger"))) == "S8"


def test_s8_targets_must_be_living_when_saved() -> None:
    t = Table(6)
    _burn_analyst(t)
    dead = t.seat("analyst")
    assert t.refused(A.SaveOperation(t.seat("forger"), dead)) == "S8"
    assert t.refused(A.SaveOrder(t.seat("ringleader"), dead, t.seat("forger"))) == "S8"
    assert t.refused(A.CastVote(t.seat("forger"), dead)) == "S21"
    assert t.refused(A.SendWhisper(t.seat("forger"), dead, "hello?")) == "S31"


def test_s8_no_such_seat() -> None:
    t = Table(6)
    assert t.refused(A.SaveOperation(6, 0)) == "S8"
    assert t.refused(A.SaveOperation(t.seat("forger"), 17)) == "S8"
    assert t.refused(A.CastVote(-3, 0)) == "S8"


def test_s8_a_target_removed_after_saving_drops_out() -> None:
    t = Table(7)
    t.op("analyst", "field_agent")
    t.op("watcher", "field_agent")
    t.vote("forger", "field_agent")
    t.remove("field_agent")
    assert t.view("analyst")["me"]["operation"] is None
    assert t.view("forger")["me"]["vote"] is None
    p = t.pouch()
    assert p.result("analyst") == [] and p.result("watcher") == []
    assert p.tally == {"abstain": 6}


# --- S9 Targets -------------------------------------------------------------------------------

ANY_LIVING = ["analyst", "watcher", "field_agent", "forger", "defector"]
ANOTHER_LIVING = ["shadow", "safehouse_keeper", "interrogator", "honeytrap"]


@pytest.mark.parametrize("role", ANY_LIVING)
def test_s9_any_living_includes_oneself(role: str) -> None:
    t = Table(10)
    t.op(role, role)
    assert t.view(role)["me"]["operation"] == {"target": t.codename(role)}
    assert t.options(role)["ability_targets"] == t.names


@pytest.mark.parametrize("role", ANOTHER_LIVING)
def test_s9_another_living_excludes_oneself(role: str) -> None:
    t = Table(10)
    assert t.refused(A.SaveOperation(t.seat(role), t.seat(role))) == "S9"
    assert t.options(role)["ability_targets"] == [n for n in t.names if n != role]


def test_s9_the_ringleader_has_no_ability_of_its_own() -> None:
    t = Table(6)
    assert t.refused(A.SaveOperation(t.seat("ringleader"), t.seat("analyst"))) == "S9"
    assert t.options("ringleader")["ability_targets"] == []


def test_s9_dead_players_are_no_longer_targets() -> None:
    t = Table(6)
    _burn_analyst(t)
    assert "analyst" not in t.options("field_agent")["ability_targets"]
    assert "analyst" not in t.options("field_agent")["vote_choices"]


def test_s9_interrogator_cannot_detain_the_same_player_on_consecutive_days() -> None:
    t = Table(9)
    t.op("interrogator", "field_agent")
    t.pouch()
    assert t.refused(A.SaveOperation(t.seat("interrogator"), t.seat("field_agent"))) == "S9"
    assert "field_agent" not in t.options("interrogator")["ability_targets"]
    t.op("interrogator", "analyst")  # someone else is fine
    t.pouch()
    t.op("interrogator", "field_agent")  # and the first one again after the gap
    p = t.pouch()
    assert p.result("interrogator") == [{"kind": "interrogation", "with": "field_agent"}]


def test_s9_interrogator_can_detain_again_after_a_day_off() -> None:
    t = Table(9)
    t.op("interrogator", "forger")
    t.pouch()
    t.pouch()
    t.op("interrogator", "forger")
    assert t.pouch().result("forger") == [{"kind": "interrogation", "with": "interrogator"}]


# --- S10 The Ring order -----------------------------------------------------------------------


def test_s10_no_ring_order_on_day_1() -> None:
    t = Table(6)
    order = A.SaveOrder(t.seat("ringleader"), t.seat("analyst"), t.seat("forger"))
    assert t.refused(order) == "S10"
    assert t.options("ringleader")["order_targets"] == []
    t.pouch()
    t.do(order)
    assert t.pouch().deaths == {"analyst": ["liquidated"]}


def test_s10_only_the_order_holder_files_it() -> None:
    t = Table(10)
    t.skip()
    for name in ("forger", "honeytrap", "analyst", "defector"):
        order = A.SaveOrder(t.seat(name), t.seat("watcher"), t.seat("forger"))
        assert t.refused(order) == "S10"
        assert t.options(name)["order_targets"] == []


def test_s10_the_target_is_a_living_non_ring_player() -> None:
    t = Table(10)
    t.skip()
    holder = t.seat("ringleader")
    for ring in ("ringleader", "forger", "honeytrap"):
        assert t.refused(A.SaveOrder(holder, t.seat(ring), holder)) == "S10"
    assert t.options("ringleader")["order_targets"] == [
        n for n in t.names if n not in ("ringleader", "forger", "honeytrap")
    ]
    t.order("ringleader", target="defector", performer="honeytrap")  # the Defector is fair game
    assert t.pouch().deaths == {"defector": ["liquidated"]}


def test_s10_the_performer_is_a_living_ring_member() -> None:
    t = Table(10)
    t.skip()
    holder = t.seat("ringleader")
    for other in ("analyst", "defector"):
        order = A.SaveOrder(holder, t.seat("watcher"), t.seat(other))
        assert t.refused(order) == "S10"
    assert t.options("ringleader")["order_performers"] == ["ringleader", "forger", "honeytrap"]


def test_s10_the_order_holder_may_perform_it() -> None:
    t = Table(6)
    t.skip()
    t.order("ringleader", target="safehouse_keeper", performer="ringleader")
    assert t.pouch().deaths == {"safehouse_keeper": ["liquidated"]}


def test_s10_living_ring_members_see_the_current_order() -> None:
    t = Table(10)
    t.votes("honeytrap", "analyst", "watcher", "shadow", "interrogator")
    t.pouch()
    t.order("ringleader", target="analyst", performer="forger")
    order = {"order_target": t.codename("analyst"), "performer": t.codename("forger")}
    for ring in ("ringleader", "forger"):
        assert t.view(ring)["ring"]["order"] == order
        assert t.view(ring)["ring"]["order_holder"] == t.codename("ringleader")
    assert "order" not in t.view("honeytrap")["ring"]  # burned: no longer sees it
    for name in ("analyst", "watcher", "defector", None):
        assert '"order_target"' not in t.view_text(name)


def test_s10_ring_members_are_told_of_order_changes() -> None:
    t = Table(9)
    t.skip()
    events = t.do(A.SaveOrder(t.seat("ringleader"), t.seat("analyst"), t.seat("forger")))
    ring = {t.seat("ringleader"), t.seat("forger"), t.seat("honeytrap")}
    assert [set(e.audience.seats) for e in events] == [ring]
    assert not any(e.audience.public for e in events)


# --- S11 Order-holder and heir ----------------------------------------------------------------


def _recall(t: Table, name: str) -> None:
    """Everyone else votes `name` out at today's Pouch."""
    t.votes(name, *[n for n in t.names if n != name and t.alive(n)])


def test_s11_the_earliest_joined_surviving_ring_member_inherits_the_order() -> None:
    t = Table(RING_9)
    t.pouch()
    _recall(t, "ringleader")
    heir_order = A.SaveOrder(t.seat("honeytrap"), t.seat("analyst"), t.seat("honeytrap"))
    assert t.refused(heir_order) == "S10"
    assert t.pouch().deaths == {"ringleader": ["recalled"]}
    assert t.view("forger")["ring"]["order_holder"] == t.codename("honeytrap")
    forger_order = A.SaveOrder(t.seat("forger"), t.seat("analyst"), t.seat("forger"))
    assert t.refused(forger_order) == "S10"
    assert t.options("honeytrap")["order_performers"] == ["honeytrap", "forger"]
    t.order("honeytrap", target="analyst", performer="forger")
    assert t.pouch().deaths == {"analyst": ["liquidated"]}


def test_s11_the_heir_holds_only_from_the_next_day_on() -> None:
    t = Table(RING_9)
    t.pouch()
    t.remove("ringleader")  # S40: burned now, mid-day
    heir_order = A.SaveOrder(t.seat("honeytrap"), t.seat("analyst"), t.seat("forger"))
    assert t.refused(heir_order) == "S10"
    assert t.options("honeytrap")["order_targets"] == []
    assert t.pouch().deaths == {}
    t.do(heir_order)
    assert t.pouch().deaths == {"analyst": ["liquidated"]}


def test_s11_the_heir_can_use_their_own_ability_instead() -> None:
    t = Table(RING_9)
    _recall(t, "ringleader")
    t.pouch()
    t.op("honeytrap", "analyst")
    t.op("analyst", "forger")
    p = t.pouch()
    assert p.result("analyst") == []  # distracted by the heir's own ability
    assert p.deaths == {}


def test_s11_the_heir_files_either_the_order_or_the_ability_never_both() -> None:
    t = Table(RING_9)
    _recall(t, "ringleader")
    t.pouch()
    t.op("honeytrap", "analyst")
    t.order("honeytrap", target="watcher", performer="forger")  # replaces the distraction
    t.op("analyst", "forger")
    p = t.pouch()
    assert p.deaths == {"watcher": ["liquidated"]}
    assert p.result("analyst") == [
        {"kind": "analyst", "target": "forger", "reading": "COMPROMISED"}
    ]
    t.order("honeytrap", target="safehouse_keeper", performer="forger")
    t.op("honeytrap", "analyst")  # and the ability replaces the order
    p = t.pouch()
    assert p.deaths == {}
    assert p.result("analyst") == []


def test_s11_an_heir_naming_another_performer_gives_up_their_ability_and_stays_home() -> None:
    t = Table(RING_9)
    _recall(t, "ringleader")
    t.pouch()
    t.order("honeytrap", target="field_agent", performer="forger")
    t.op("watcher", "analyst")
    t.op("analyst", "analyst")
    p = t.pouch()
    assert p.deaths == {"field_agent": ["liquidated"]}
    assert p.role_result("watcher") == {
        "kind": "watcher",
        "target": "analyst",
        "visitors": ["analyst"],
    }
    assert p.role_result("analyst") == {"kind": "analyst", "target": "analyst", "reading": "CLEAR"}


def test_s11_the_order_passes_on_again_when_the_heir_dies() -> None:
    t = Table(RING_9)
    _recall(t, "ringleader")
    t.pouch()
    _recall(t, "honeytrap")
    t.pouch()
    assert t.view("forger")["ring"]["order_holder"] == t.codename("forger")
    t.order("forger", target="analyst", performer="forger")
    assert t.pouch().deaths == {"analyst": ["liquidated"]}


def test_s11_the_ringleader_keeps_the_order_while_alive() -> None:
    t = Table(RING_9)
    _recall(t, "honeytrap")
    t.pouch()
    assert t.view("forger")["ring"]["order_holder"] == t.codename("ringleader")
    assert t.refused(A.SaveOrder(t.seat("forger"), t.seat("analyst"), t.seat("forger"))) == "S10"


def test_s11_the_heir_does_not_inherit_the_ringleader_clear() -> None:
    t = Table(RING_9)
    _recall(t, "ringleader")
    t.pouch()
    t.op("analyst", "honeytrap")
    p = t.pouch()
    assert p.role_result("analyst") == {
        "kind": "analyst",
        "target": "honeytrap",
        "reading": "COMPROMISED",
    }


# --- S12 Performer ----------------------------------------------------------------------------


def test_s12_the_liquidation_replaces_the_performer_operation() -> None:
    t = Table(7)
    t.skip()
    t.op("forger", "safehouse_keeper")  # a frame the kill will replace
    t.order("ringleader", target="field_agent", performer="forger")
    t.op("analyst", "safehouse_keeper")
    t.op("watcher", "safehouse_keeper")
    p = t.pouch()
    assert p.deaths == {"field_agent": ["liquidated"]}
    assert p.role_result("analyst") == {
        "kind": "analyst",
        "target": "safehouse_keeper",
        "reading": "CLEAR",
    }
    assert p.role_result("watcher") == {
        "kind": "watcher",
        "target": "safehouse_keeper",
        "visitors": ["analyst"],
    }


def test_s12_the_order_itself_is_not_a_visit() -> None:
    t = Table(7)
    t.skip()
    t.order("ringleader", target="field_agent", performer="forger")
    t.op("watcher", "field_agent")
    p = t.pouch()
    assert p.role_result("watcher") == {
        "kind": "watcher",
        "target": "field_agent",
        "visitors": ["forger"],
    }


def test_s12_a_honeytrap_performer_gives_up_the_distraction() -> None:
    t = Table(9)
    t.skip()
    t.op("honeytrap", "analyst")
    t.order("ringleader", target="watcher", performer="honeytrap")
    t.op("analyst", "ringleader")
    p = t.pouch()
    assert p.deaths == {"watcher": ["liquidated"]}
    assert p.role_result("analyst") == {
        "kind": "analyst",
        "target": "ringleader",
        "reading": "CLEAR",
    }


def test_s12_the_order_is_locked_at_the_deadline() -> None:
    t = Table(6)
    t.skip()
    t.order("ringleader", target="analyst", performer="forger")
    t.op("forger", "field_agent")  # saved after the order: still replaced at lock
    t.op("analyst", "field_agent")
    p = t.pouch()
    assert p.deaths == {"analyst": ["liquidated"]}
    assert p.role_result("analyst") == {
        "kind": "analyst",
        "target": "field_agent",
        "reading": "CLEAR",
    }
