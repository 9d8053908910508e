"""The belief's hard facts (each named after its rule), its liars, and that it reads only
what the seat may see (S42)."""

from __future__ import annotations

import copy
from collections.abc import Sequence

import pytest

from deaddrop.bots.station.belief import Belief, belief_of
from deaddrop.bots.station.known import read
from deaddrop.bots.station.likelihood import Likelihood
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.claims import Post
from deaddrop.engine.station.game import apply
from deaddrop.engine.station.setup import setup_from_deal, start
from deaddrop.engine.station.state import State
from deaddrop.station_sim.simulate import seen_by
from tests.bots.station.test_heuristic import _hidden_from, _midgame

SIX = (
    ("OWL", "ringleader"), ("RAVEN", "forger"), ("HERON", "analyst"),
    ("WREN", "safehouse_keeper"), ("KESTREL", "field_agent"), ("FALCON", "field_agent"),
)  # fmt: skip
OWL, RAVEN, HERON, WREN, KESTREL, FALCON = range(6)
NINE = (
    ("OWL", "ringleader"), ("RAVEN", "forger"), ("HERON", "honeytrap"), ("WREN", "analyst"),
    ("KESTREL", "safehouse_keeper"), ("FALCON", "watcher"), ("SWIFT", "interrogator"),
    ("MAGPIE", "field_agent"), ("PLOVER", "field_agent"),
)  # fmt: skip


def _play(deal: Sequence[tuple[str, str]], days: Sequence[Sequence[A.DayAction]]) -> State:
    """A fixed deal, each day's saves, then its Pouch."""
    state = start(setup_from_deal(deal))
    for saves in days:
        for action in saves:
            state, _ = apply(state, action)
        state, _ = apply(state, A.ResolvePouch())
    return state


def _belief(state: State, seat: int, posts: Sequence[Post] = ()) -> Belief:
    """The seat's belief from its view (a JSON round trip) and these posts."""
    return belief_of(read(seen_by(state, seat), list(posts)))


def test_every_marginal_sums_to_one_and_my_own_role_is_certain() -> None:
    belief = _belief(_play(SIX, []), HERON)
    assert belief.p_role("HERON", "analyst") == 1.0
    for codename, row in belief.roles.items():
        assert sum(row.values()) == pytest.approx(1.0), codename
    assert belief.p_faction("OWL", "ring") == pytest.approx(2 / 5)  # the deal's prior (S4)


def test_s5_a_ring_seat_is_certain_of_its_mates_and_that_nobody_else_is_ring() -> None:
    belief = _belief(_play(SIX, []), RAVEN)
    assert belief.p_role("OWL", "ringleader") == 1.0
    assert all(belief.p_faction(c, "ring") == 0.0 for c in ("HERON", "WREN", "KESTREL", "FALCON"))
    assert belief.p_role("HERON", "analyst") == pytest.approx(1 / 4)


def test_s19_a_clear_reading_rules_out_forger_and_honeytrap_not_the_ringleader() -> None:
    belief = _belief(_play(SIX, [[A.SaveOperation(HERON, OWL)]]), HERON)
    assert belief.p_role("OWL", "forger") == 0.0
    assert 0.0 < belief.p_role("OWL", "ringleader") < 1.0


def test_s16_a_compromised_reading_may_be_a_frame() -> None:
    framed = [A.SaveOperation(RAVEN, WREN), A.SaveOperation(HERON, WREN)]
    belief = _belief(_play(SIX, [framed]), HERON)
    assert 0.0 < belief.p_faction("WREN", "station") < 0.5  # the frame rate keeps it possible
    assert belief.p_role("WREN", "forger") > 0.5


def test_s15_s19_a_cancelled_reading_produces_nothing() -> None:
    quiet = _play(NINE, [[A.SaveOperation(SEAT9["HERON"], SEAT9["FALCON"])]])
    distracted = _play(
        NINE,
        [[A.SaveOperation(SEAT9["WREN"], SEAT9["OWL"]), A.SaveOperation(SEAT9["HERON"],
                                                                        SEAT9["WREN"])]],
    )  # fmt: skip
    assert seen_by(distracted, SEAT9["WREN"])["me"]["results"] == []
    assert _belief(distracted, SEAT9["WREN"]).roles == _belief(quiet, SEAT9["WREN"]).roles


SEAT9 = {codename: seat for seat, (codename, _) in enumerate(NINE)}


def test_s23_a_burned_players_published_faction_prunes() -> None:
    votes = [A.CastVote(s, KESTREL) for s in (OWL, RAVEN, HERON, WREN)]
    belief = _belief(_play(SIX, [votes]), HERON)
    assert belief.p_faction("KESTREL", "station") == 1.0
    assert belief.p_faction("OWL", "ring") == pytest.approx(2 / 3, abs=0.2)


def test_s18_s23_a_liquidated_player_is_never_ring() -> None:
    state = _play(SIX, [[], [A.SaveOrder(OWL, WREN, RAVEN)]])
    assert not state.alive[WREN]
    belief = _belief(state, KESTREL)
    assert belief.p_faction("WREN", "ring") == 0.0
    assert belief.p_role("WREN", "safehouse_keeper") > 0.0


def test_s10_s18_the_keepers_safehouse_needed_names_a_player_who_is_not_ring() -> None:
    state = _play(SIX, [[], [A.SaveOrder(OWL, KESTREL, RAVEN), A.SaveOperation(WREN, KESTREL)]])
    assert state.alive[KESTREL]
    belief = _belief(state, WREN)
    assert belief.p_faction("KESTREL", "ring") == 0.0


def test_s14_s19_an_interrogation_entry_names_the_interrogator() -> None:
    state = _play(NINE, [[A.SaveOperation(SEAT9["SWIFT"], SEAT9["MAGPIE"])]])
    belief = _belief(state, SEAT9["MAGPIE"])
    assert belief.p_role("SWIFT", "interrogator") == pytest.approx(1.0)
    assert belief.p_role("OWL", "interrogator") == 0.0


def test_s18_s19_a_watched_victim_was_visited_by_the_ring() -> None:
    seven = (*SIX[:5], ("FALCON", "watcher"), ("SWIFT", "field_agent"))
    order: list[A.DayAction] = [A.SaveOrder(OWL, KESTREL, RAVEN), A.SaveOperation(5, KESTREL)]
    state = _play(seven, [[], order])
    result = seen_by(state, 5)["me"]["results"][-1]["results"][0]
    assert result["visitors"] == ["RAVEN"]
    assert _belief(state, 5).p_faction("RAVEN", "ring") == pytest.approx(1.0)


def test_s26_after_the_game_every_role_is_certain() -> None:
    votes = [A.CastVote(s, OWL) for s in range(6)]
    state = _play(SIX, [votes, [A.CastVote(s, RAVEN) for s in range(1, 6)]])
    assert state.over
    belief = _belief(state, HERON)
    assert all(belief.p_role(c, r) == pytest.approx(1.0) for c, r in SIX)


def test_s27_a_rumor_carries_no_information() -> None:
    state, chat = _midgame(8, 3, 2)
    seen = seen_by(state, 0)
    changed = copy.deepcopy(dict(seen))
    for cable in changed["cables"]:
        cable["rumor"] = {"target": seen["roster"][1]["codename"], "text": "a rumor"}
    posts = chat.posts_for(state, 0, seen)
    assert belief_of(read(changed, posts)) == belief_of(read(seen, posts))


def test_s25_a_self_vote_makes_the_defector_likelier() -> None:
    eight = (*SIX, ("SWIFT", "watcher"), ("MAGPIE", "defector"))
    alone = _belief(_play(eight, [[]]), HERON)
    voted = _belief(_play(eight, [[A.CastVote(7, 7)]]), HERON)
    assert voted.p_role("MAGPIE", "defector") > alone.p_role("MAGPIE", "defector")


def test_s42_secrets_a_seat_cannot_see_leave_the_belief_unchanged() -> None:
    for seed in range(3):
        for players, days in ((10, 2), (8, 2), (9, 3), (7, 2)):
            state, chat = _midgame(players, seed, days)
            for seat in state.living():
                changed, other_chat = _hidden_from(state, seat, chat)
                seen, other = seen_by(state, seat), seen_by(changed, seat)
                mine = belief_of(read(seen, chat.posts_for(state, seat, seen)))
                theirs = belief_of(read(other, other_chat.posts_for(changed, seat, other)))
                assert mine == theirs


def _post(author: str, text: str, day: int = 2) -> Post:
    return Post(day, author, "floor", text)


def test_s43_a_claim_of_my_own_unique_role_marks_a_liar_and_weighs_as_a_lie() -> None:
    state = _play(SIX, [[]])
    plain = _belief(state, HERON)
    claims = [_post("KESTREL", "I am the Analyst. Day 1: I read WREN as COMPROMISED.")]
    lying = _belief(state, HERON, claims)
    assert lying.liars == frozenset({"KESTREL"})
    assert lying.p_faction("KESTREL", "ring") > plain.p_faction("KESTREL", "ring")


def test_s31_s43_a_whisper_count_the_announcements_refute_marks_a_liar() -> None:
    state = _play(SIX, [[A.SendWhisper(OWL, WREN, "hi")]])
    wrong = [_post("FALCON", "Day 1: WREN sent and received 3 whispers.")]
    right = [_post("FALCON", "Day 1: WREN sent and received 1 whisper.")]
    assert _belief(state, HERON, wrong).liars == frozenset({"FALCON"})
    assert _belief(state, HERON, right).liars == frozenset()


def test_s19_s43_a_clear_reading_of_my_ring_mate_marks_a_liar() -> None:
    state = _play(SIX, [[]])
    claims = [_post("WREN", "Day 1: I read RAVEN as CLEAR.")]
    assert _belief(state, OWL, claims).liars == frozenset({"WREN"})
    assert _belief(state, KESTREL, claims).liars == frozenset()  # possible for all it knows


def test_s43_two_roles_claimed_mark_a_liar_and_an_honest_claim_does_not() -> None:
    state = _play(SIX, [[]])
    two = [_post("WREN", "I am the Safehouse Keeper."), _post("WREN", "I am a Field Agent.")]
    assert _belief(state, HERON, two).liars == frozenset({"WREN"})
    assert _belief(state, HERON, two[:1]).liars == frozenset()


def test_s23_s25_a_recalled_defector_is_certain_and_wins_alone() -> None:
    eight = (*SIX, ("SWIFT", "watcher"), ("MAGPIE", "defector"))
    state = _play(eight, [[A.CastVote(s, 7) for s in range(6)]])
    assert state.defector_won and not state.over
    belief = _belief(state, HERON)
    assert belief.p_role("MAGPIE", "defector") == pytest.approx(1.0)
    assert belief.p_faction("SWIFT", "neutral") == 0.0


def test_p_all_ring_is_the_joint_law_not_the_product_of_marginals() -> None:
    belief = _belief(_play(SIX, [[A.SaveOperation(HERON, OWL)]]), HERON)
    joint = belief.p_all_ring(["WREN", "KESTREL"])
    assert joint == pytest.approx(
        sum(p for r, p in belief.ring_sets.items() if {"WREN", "KESTREL"} <= r)
    )
    assert belief.p_all_ring([]) == pytest.approx(1.0)
    assert belief.p_all_ring(["OWL", "RAVEN", "WREN"]) == 0.0  # the Ring is two at six (S1)


def test_s9_s19_a_claimed_visit_to_its_author_is_possible_a_self_followed_shadow_is_not() -> None:
    ten = (
        ("OWL", "ringleader"), ("RAVEN", "forger"), ("HERON", "honeytrap"), ("WREN", "analyst"),
        ("KESTREL", "safehouse_keeper"), ("FALCON", "watcher"), ("SWIFT", "interrogator"),
        ("MAGPIE", "shadow"), ("PLOVER", "field_agent"), ("EGRET", "defector"),
    )  # fmt: skip
    state = _play(ten, [[]])
    visited_me = [_post("MAGPIE", "Day 1: OWL visited MAGPIE.")]
    followed_myself = [_post("MAGPIE", "Day 1: MAGPIE stayed home.")]
    assert _belief(state, 0, visited_me).liars == frozenset()
    assert _belief(state, 0, followed_myself).liars == frozenset({"MAGPIE"})


def test_soft_factors_must_be_positive_so_only_hard_facts_rule_out() -> None:
    with pytest.raises(ValueError):
        Likelihood(frame_rate=0.0)
    with pytest.raises(ValueError):
        Likelihood(slip=0.0)
