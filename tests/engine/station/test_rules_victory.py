"""Deaths and victory, S23–S27 and S40: the Cable, who wins, the Defector, the reveal, rumors,
and the host's removal."""

from __future__ import annotations

import json

import pytest

from deaddrop.engine.station import actions as A
from deaddrop.engine.station.game import replay
from deaddrop.engine.station.state import ABSTAIN

from .helpers import Table

ROLES = {
    "ringleader", "forger", "honeytrap", "analyst", "watcher", "shadow", "safehouse_keeper",
    "interrogator", "field_agent", "defector",
}  # fmt: skip


def recall(t: Table, name: str) -> None:
    """Everyone else living votes `name` out today."""
    t.votes(name, *[n for n in t.names if n != name and t.alive(n)])


# --- S23 The Morning Cable --------------------------------------------------------------------


def test_s23_the_cable_names_cause_faction_and_final_cable() -> None:
    t = Table(6)
    t.final_cable("forger", "I regret nothing.")
    recall(t, "forger")
    p = t.pouch()
    assert p.cable["deaths"] == [
        {
            "codename": "forger",
            "causes": ["recalled"],
            "faction": "ring",
            "final_cable": "I regret nothing.",
        }
    ]


def test_s23_exact_roles_stay_secret_until_the_game_ends() -> None:
    t = Table(10)
    recall(t, "honeytrap")
    t.pouch()
    t.order("ringleader", target="shadow", performer="forger")
    t.pouch()
    assert not t.alive("honeytrap") and not t.alive("shadow")
    spectator = t.view_text(None)
    for role in ROLES:
        assert f'"{role}"' not in spectator
    field_agent = t.view_text("field_agent")
    for role in ROLES - {"field_agent"}:
        assert f'"{role}"' not in field_agent
    roster = {entry["codename"]: entry for entry in t.view(None)["roster"]}
    assert roster[t.codename("honeytrap")]["death"]["faction"] == "ring"
    assert "role" not in roster[t.codename("honeytrap")]


def test_s23_the_cable_reports_the_tally_and_the_recall() -> None:
    t = Table(6)
    t.votes("field_agent", "ringleader", "forger")
    t.vote("analyst", "abstain")
    p = t.pouch()
    assert p.cable["tally"] == {"field_agent": 2, "abstain": 4}
    assert p.cable["recalled"] == "field_agent"
    assert p.cable["day"] == 1


# --- S24 Victory ------------------------------------------------------------------------------


def test_s24_no_living_ring_member_station_wins() -> None:
    t = Table(6)
    recall(t, "forger")
    assert t.pouch().winner is None
    recall(t, "ringleader")
    p = t.pouch()
    assert p.winner == "station"
    assert t.state.over and t.view(None)["winner"] == "station"


def test_s24_ring_at_parity_wins() -> None:
    t = Table(6)
    recall(t, "analyst")
    assert t.pouch().winner is None  # 2 Ring, 3 others
    t.order("ringleader", target="field_agent", performer="forger")
    p = t.pouch()
    assert p.deaths == {"field_agent": ["liquidated"]}
    assert p.winner == "ring"  # 2 Ring, 2 others


def test_s24_a_living_defector_counts_among_the_others() -> None:
    t = Table(8)
    recall(t, "analyst")
    t.pouch()
    t.order("ringleader", target="watcher", performer="forger")
    recall(t, "safehouse_keeper")
    p = t.pouch()
    assert p.deaths == {"watcher": ["liquidated"], "safehouse_keeper": ["recalled"]}
    assert p.winner is None  # 2 Ring against 2 Station and the Defector
    t.order("ringleader", target="field_agent", performer="forger")
    assert t.pouch().winner == "ring"  # 2 Ring against 1 Station and the Defector


def test_s24_day_10_pouch_ends_the_game_for_the_ring() -> None:
    t = Table(10)
    pouches = t.skip(10)
    assert [p.winner for p in pouches] == [None] * 9 + ["ring"]
    assert t.view(None)["over"] is True


def test_s24_station_win_is_checked_before_the_day_10_timeout() -> None:
    t = Table(6)
    t.skip(8)
    recall(t, "forger")
    assert t.pouch().winner is None
    recall(t, "ringleader")
    p = t.pouch()
    assert p.day == 10 and p.winner == "station"


@pytest.mark.parametrize("action_name", ["op", "order", "vote", "whisper", "cable", "remove"])
def test_s24_actions_after_the_game_ends_are_refused(action_name: str) -> None:
    t = Table(6)
    recall(t, "forger")
    t.pouch()
    recall(t, "ringleader")
    t.pouch()
    assert t.state.over
    actions: dict[str, A.Action] = {
        "op": A.SaveOperation(t.seat("analyst"), t.seat("analyst")),
        "order": A.SaveOrder(t.seat("ringleader"), t.seat("analyst"), t.seat("ringleader")),
        "vote": A.CastVote(t.seat("analyst"), ABSTAIN),
        "whisper": A.SendWhisper(t.seat("analyst"), t.seat("field_agent"), "we won"),
        "cable": A.EditFinalCable(t.seat("analyst"), "we won"),
        "remove": A.RemovePlayer(t.seat("analyst")),
    }
    assert t.refused(actions[action_name]) == "S24"
    assert t.refused(A.ResolvePouch()) == "S24"
    assert t.refused(A.WithdrawOperation(t.seat("analyst"))) == "S24"


# --- S25 The Defector -------------------------------------------------------------------------


def test_s25_defector_recalled_wins_personally_and_the_game_goes_on() -> None:
    t = Table(8)
    recall(t, "defector")
    p = t.pouch()
    assert p.deaths == {"defector": ["recalled"]}
    assert p.cable["defector_won"] is True
    assert p.winner is None and not t.state.over
    assert t.view(None)["defector_won"] is True
    later = t.pouch()
    assert later.cable["defector_won"] is False  # announced in that Cable only
    assert t.view("analyst")["defector_won"] is True  # but the win stands


def test_s25_defector_recalled_and_liquidated_still_wins() -> None:
    t = Table(10)
    t.pouch()
    t.order("ringleader", target="defector", performer="forger")
    recall(t, "defector")
    p = t.pouch()
    assert p.deaths == {"defector": ["recalled", "liquidated"]}
    assert p.cable["defector_won"] is True


def test_s25_a_liquidated_defector_does_not_win() -> None:
    t = Table(10)
    t.pouch()
    t.order("ringleader", target="defector", performer="forger")
    p = t.pouch()
    assert p.deaths == {"defector": ["liquidated"]}
    assert p.cable["defector_won"] is False
    assert t.view(None)["defector_won"] is False


def test_s25_the_defector_win_and_the_game_result_stand_together() -> None:
    t = Table(8)
    recall(t, "defector")
    t.pouch()
    recall(t, "forger")
    t.pouch()
    recall(t, "ringleader")
    p = t.pouch()
    assert p.winner == "station"
    assert t.view(None)["reveal"]["defector_won"] is True


# --- S26 After the game -----------------------------------------------------------------------


def _finished_game() -> Table:
    t = Table(9)
    t.whisper("analyst", "watcher", "secret-one")
    t.op("analyst", "forger")
    t.op("interrogator", "honeytrap")
    recall(t, "forger")
    t.pouch()
    t.whisper("ringleader", "honeytrap", "secret-two")
    t.order("ringleader", target="analyst", performer="honeytrap")
    recall(t, "honeytrap")
    t.pouch()
    recall(t, "ringleader")
    assert t.pouch().winner == "station"
    return t


def test_s26_every_role_is_revealed_to_every_player_after_the_game() -> None:
    t = _finished_game()
    for viewer in t.names:  # the living and the burned
        mine = t.view(viewer)
        assert {r["codename"]: r["role"] for r in mine["reveal"]["roles"]} == dict(
            zip(t.codenames, [n.removesuffix("_2") for n in t.names], strict=True)
        )
        assert [e["role"] for e in mine["roster"]] == [n.removesuffix("_2") for n in t.names]


def test_s26_every_operation_result_and_whisper_is_revealed_to_every_player() -> None:
    t = _finished_game()
    for viewer in t.names:
        history = t.named(t.view(viewer)["history"])
        assert [day["day"] for day in history] == [1, 2, 3]
        assert history[0]["operations"] == {
            "analyst": {"target": "forger"},
            "interrogator": {"target": "honeytrap"},
        }
        assert history[0]["results"] == {
            "analyst": [{"kind": "analyst", "target": "forger", "reading": "COMPROMISED"}],
            "honeytrap": [{"kind": "interrogation", "with": "interrogator"}],
            "interrogator": [{"kind": "interrogation", "with": "honeytrap"}],
        }
        assert history[1]["operations"] == {
            "ringleader": {"order_target": "analyst", "performer": "honeytrap"}
        }
        assert history[1]["cancelled"] == []
        whispers = [w["text"] for day in history for w in day["whispers"]]
        assert whispers == ["secret-one", "secret-two"]


def test_s26_nothing_private_is_revealed_before_the_end() -> None:
    t = Table(9)
    t.whisper("analyst", "watcher", "secret-one")
    t.pouch()
    for viewer in t.names:
        mine = t.view(viewer)
        assert "history" not in mine and "reveal" not in mine
        assert all("role" not in entry for entry in mine["roster"])


# --- S27 Rumors -------------------------------------------------------------------------------


def test_s27_a_rumor_adds_an_anonymous_line_about_its_target() -> None:
    t = Table(8)
    t.op("defector", "analyst")
    p = t.pouch()
    rumor = p.cable["rumor"]
    assert rumor["target"] == "analyst"
    assert t.codename("analyst") in rumor["text"]
    assert t.codename("defector") not in json.dumps(rumor)
    assert p.results == {}


def test_s27_lie_low_or_a_cancelled_rumor_adds_nothing() -> None:
    t = Table(10)
    assert t.pouch().cable["rumor"] is None  # Lie low
    t.op("defector", "analyst")
    t.op("honeytrap", "defector")
    assert t.pouch().cable["rumor"] is None
    t.op("defector", "analyst")
    t.op("interrogator", "defector")
    assert t.pouch().cable["rumor"] is None


def test_s27_the_rumor_line_comes_from_the_game_rng() -> None:
    texts = set()
    for seed in range(12):
        lines = []
        for _ in range(2):
            t = Table(8, seed=seed)
            t.op("defector", "watcher")
            lines.append(t.pouch().cable["rumor"]["text"])
        assert lines[0] == lines[1]  # the same seed, the same line
        texts.add(lines[0])
    assert len(texts) > 1


def test_s27_the_rng_state_replays_with_the_game() -> None:
    t = Table(8, seed=99)
    for target in ("watcher", "analyst", "defector"):
        t.op("defector", target)
        t.pouch()
    assert replay(t.setup, t.log) == t.state
    lines = [cable["rumor"]["text"] for cable in t.view(None)["cables"]]
    assert len(set(lines)) >= 1 and all(line for line in lines)


# --- S40 The host removes a player ------------------------------------------------------------


def test_s40_removal_burns_at_once_with_cause_removed() -> None:
    t = Table(7)
    t.final_cable("watcher", "They made me leave.")
    (event,) = t.remove("watcher")
    assert not t.alive("watcher") and t.state.day == 1
    assert event.kind == "player_removed" and event.audience.public
    assert event.payload == {
        "day": 1,
        "codename": t.codename("watcher"),
        "causes": ["removed"],
        "faction": "station",
        "final_cable": "They made me leave.",
    }
    entry = t.view(None)["roster"][t.seat("watcher")]
    assert entry["death"] == {
        "day": 1,
        "causes": ["removed"],
        "faction": "station",
        "final_cable": "They made me leave.",  # S23, S40: published with the removal
    }
    assert t.pouch().deaths == {}  # not burned a second time at the Pouch


def test_s40_removing_the_last_ring_member_ends_the_game_at_once() -> None:
    t = Table(6)
    t.remove("forger")
    assert not t.state.over
    events = t.remove("ringleader")
    assert t.state.over and t.state.winner == "station"
    assert [e.kind for e in events] == ["player_removed", "game_over"]
    assert t.refused(A.ResolvePouch()) == "S24"


def test_s40_removal_to_parity_ends_the_game_at_once() -> None:
    t = Table(6)
    t.remove("analyst")
    assert not t.state.over  # 2 Ring, 3 others
    t.remove("field_agent")
    assert t.state.winner == "ring"  # 2 Ring, 2 others


def test_s40_only_a_living_player_can_be_removed() -> None:
    t = Table(6)
    t.remove("analyst")
    assert t.refused(A.RemovePlayer(t.seat("analyst"))) == "S40"
    assert t.refused(A.RemovePlayer(17)) == "S40"


def test_s40_a_removed_player_operation_no_longer_resolves() -> None:
    t = Table(6)
    t.pouch()
    t.op("safehouse_keeper", "analyst")
    t.order("ringleader", target="analyst", performer="forger")
    t.remove("safehouse_keeper")
    assert t.pouch().deaths == {"analyst": ["liquidated"]}


def test_s40_removing_an_interrogation_party_closes_the_chat() -> None:
    t = Table(9)
    t.op("interrogator", "field_agent")
    t.pouch()
    assert t.view("interrogator")["me"]["interrogation_open_with"] == t.codename("field_agent")
    t.remove("field_agent")
    assert t.view("interrogator")["me"]["interrogation_open_with"] is None


def test_s40_removing_the_order_holder_passes_the_order_on_the_next_day() -> None:
    t = Table(9)
    t.pouch()
    t.order("ringleader", target="analyst", performer="forger")
    t.remove("ringleader")
    assert t.pouch().deaths == {}  # the burned holder's order went with them
    assert t.view("forger")["ring"]["order_holder"] == t.codename("forger")
