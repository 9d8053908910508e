"""The Tribunal and deaths, S21–S22: thresholds, ties, Abstain, recalled and liquidated at once."""

from __future__ import annotations

import pytest

from deaddrop.engine.station import actions as A
from deaddrop.engine.station.state import ABSTAIN

from .helpers import Table

CEIL_THIRD = {3: 1, 4: 2, 5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}
"""ceil(L / 3) written out (S21; the guide: 6 → 2, 7–9 → 3, 10 → 4)."""

# (table size, players the host removes first): every table size, and fewer living players.
TABLES = [
    (10, []),
    (10, ["field_agent"]),
    (10, ["field_agent", "shadow"]),
    (10, ["field_agent", "shadow", "watcher"]),
    (9, []),
    (9, ["field_agent"]),
    (9, ["field_agent", "field_agent_2"]),
    (8, []),
    (8, ["field_agent"]),
    (8, ["field_agent", "field_agent_2"]),
    (8, ["field_agent", "field_agent_2", "watcher"]),
    (7, []),
    (7, ["field_agent"]),
    (7, ["field_agent", "field_agent_2"]),
    (6, []),
    (6, ["field_agent"]),
    (6, ["forger", "field_agent"]),
    (6, ["forger", "field_agent", "field_agent_2"]),
]


def _ids() -> list[str]:
    return [f"{size}p-L{size - len(removed)}" for size, removed in TABLES]


def table(size: int, removed: list[str]) -> tuple[Table, list[str]]:
    """A running game with L = size - len(removed) living players, and who they are."""
    t = Table(size)
    for name in removed:
        t.remove(name)
    assert not t.state.over
    return t, [name for name in t.names if t.alive(name)]


@pytest.mark.parametrize(("size", "removed"), TABLES, ids=_ids())
def test_s21_the_unique_leader_at_the_threshold_is_recalled(size: int, removed: list[str]) -> None:
    t, living = table(size, removed)
    threshold = CEIL_THIRD[len(living)]
    target = "analyst"
    t.votes(target, *living[:threshold])
    p = t.pouch()
    assert p.cable["threshold"] == threshold
    assert p.tally == {target: threshold, "abstain": len(living) - threshold}
    assert p.recalled == target
    assert p.deaths == {target: ["recalled"]}


@pytest.mark.parametrize(("size", "removed"), TABLES, ids=_ids())
def test_s21_a_leader_below_the_threshold_is_not_recalled(size: int, removed: list[str]) -> None:
    t, living = table(size, removed)
    threshold = CEIL_THIRD[len(living)]
    t.votes("analyst", *living[: threshold - 1])
    t.votes("abstain", *living[threshold - 1 :])
    p = t.pouch()
    assert p.tally == ({"analyst": threshold - 1} if threshold > 1 else {}) | {
        "abstain": len(living) - threshold + 1
    }
    assert p.recalled is None and p.deaths == {}


@pytest.mark.parametrize(("size", "removed"), TABLES, ids=_ids())
def test_s21_a_tie_for_first_recalls_nobody(size: int, removed: list[str]) -> None:
    t, living = table(size, removed)
    threshold = CEIL_THIRD[len(living)]
    assert 2 * threshold <= len(living)
    t.votes("analyst", *living[:threshold])
    t.votes("safehouse_keeper", *living[threshold : 2 * threshold])
    p = t.pouch()
    assert p.tally["analyst"] == p.tally["safehouse_keeper"] == threshold
    assert p.recalled is None and p.deaths == {}


def test_s21_a_tie_for_first_recalls_nobody_even_with_a_third_behind() -> None:
    t = Table(10)
    t.votes("analyst", "ringleader", "forger", "honeytrap", "defector")
    t.votes("watcher", "analyst", "shadow", "interrogator", "field_agent")
    t.votes("defector", "watcher", "safehouse_keeper")
    p = t.pouch()
    assert p.tally == {"analyst": 4, "watcher": 4, "defector": 2, "abstain": 0}
    assert p.recalled is None


def test_s21_abstain_never_leads() -> None:
    t = Table(6)
    t.votes("abstain", "ringleader", "forger", "analyst", "safehouse_keeper")
    t.votes("forger", "field_agent", "field_agent_2")
    p = t.pouch()
    assert p.tally == {"forger": 2, "abstain": 4}
    assert p.recalled == "forger"


def test_s21_all_abstain_recalls_nobody() -> None:
    t = Table(6)
    t.votes("abstain", *t.names)
    p = t.pouch()
    assert p.tally == {"abstain": 6}
    assert p.recalled is None


def test_s21_abstain_is_always_in_the_tally() -> None:
    t = Table(6)
    t.votes("analyst", *t.names)
    p = t.pouch()
    assert p.tally == {"analyst": 6, "abstain": 0}


def test_s21_one_may_vote_for_oneself() -> None:
    t = Table(6)
    t.votes("field_agent", "field_agent", "field_agent_2")
    p = t.pouch()
    assert p.recalled == "field_agent"
    assert {"voter": "field_agent", "vote": "field_agent"} in p.cable["votes"]


def test_s21_votes_are_public_and_shown_live() -> None:
    t = Table(6)
    (event,) = t.do(A.CastVote(t.seat("analyst"), t.seat("forger")))
    assert event.audience.public
    assert event.payload == {"day": 1, "voter": "HERON", "vote": "RAVEN"}
    for viewer in (None, "ringleader", "field_agent"):
        votes = t.view(viewer)["votes"]
        assert {"voter": "HERON", "vote": "RAVEN"} in votes
        assert {"voter": "OWL", "vote": None} in votes
    t.do(A.CastVote(t.seat("ringleader"), ABSTAIN))
    assert {"voter": "OWL", "vote": "abstain"} in t.view(None)["votes"]


def test_s21_the_cable_keeps_every_vote() -> None:
    t = Table(6)
    t.vote("analyst", "forger")
    t.vote("forger", "abstain")
    p = t.pouch()
    assert p.cable["votes"] == [
        {"voter": "ringleader", "vote": None},
        {"voter": "forger", "vote": "abstain"},
        {"voter": "analyst", "vote": "forger"},
        {"voter": "safehouse_keeper", "vote": None},
        {"voter": "field_agent", "vote": None},
        {"voter": "field_agent_2", "vote": None},
    ]


def test_s21_only_the_living_vote() -> None:
    t = Table(6)
    t.votes("analyst", "ringleader", "forger", "field_agent")
    t.pouch()
    p = t.pouch()
    assert [v["voter"] for v in p.cable["votes"]] == [n for n in t.names if n != "analyst"]
    assert p.cable["threshold"] == 2


def test_s22_recalled_and_liquidated_at_once_dies_once_with_both_causes() -> None:
    t = Table(6)
    t.pouch()
    t.order("ringleader", target="field_agent", performer="forger")
    t.votes("field_agent", "ringleader", "forger", "analyst")
    p = t.pouch()
    assert p.cable["deaths"] == [
        {
            "codename": "field_agent",
            "causes": ["recalled", "liquidated"],
            "faction": "station",
            "final_cable": "",
        }
    ]
    assert len(t.state.deaths) == 1
    assert t.view(None)["roster"][t.seat("field_agent")]["death"] == {
        "day": 2,
        "causes": ["recalled", "liquidated"],
        "faction": "station",
        "final_cable": "",
    }


def test_s22_recalled_and_liquidated_players_die_together() -> None:
    t = Table(7)
    t.pouch()
    t.order("ringleader", target="watcher", performer="forger")
    t.votes("analyst", "ringleader", "forger", "field_agent")
    p = t.pouch()
    assert p.deaths == {"analyst": ["recalled"], "watcher": ["liquidated"]}
    assert [d["codename"] for d in p.cable["deaths"]] == ["analyst", "watcher"]
    assert not t.alive("analyst") and not t.alive("watcher")
