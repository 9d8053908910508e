"""Exact deduction (inference.py): the prior, updates, settling, queries and refusals (C12, C13)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from deaddrop.engine.cards import (
    Action,
    Deal,
    EndTurn,
    GiveCard,
    Grab,
    Options,
    SellSecrets,
    Setup,
    ShareInfo,
    State,
    SwapStash,
    apply,
    legal_actions,
    start,
    view,
)
from deaddrop.engine.cards.deck import DECK
from deaddrop.engine.cards.inference import (
    CONSISTENT,
    MODELS,
    UNIFORM,
    belief_from_view,
    drop_distribution,
    drop_entropy,
    empty_belief,
    hand_distribution,
    joint_drop_hand,
    pair_success,
    round_entries,
    settle,
    update,
)
from deaddrop.engine.cards.inference_prior import deal_prior, shuffles, splits, unknown_cards
from deaddrop.engine.core.errors import IllegalAction
from tests.engine.cards.helpers import FOUR_DEAL, README_DEAL, TWO_DEAL, play, table


def random_states(players: int, seed: int, steps: int = 120) -> list[State]:
    """The states of a random game (grabs kept rare so rounds last), after each decision."""
    rng = random.Random(seed)
    state = start(Setup(players, seed, Options(grab_face_down=seed % 2 == 1)))
    out = []
    for _ in range(steps):
        options = legal_actions(state)
        if not options:
            break
        action: Action = options[0]
        if not isinstance(action, EndTurn) or rng.random() >= 0.85:
            action = rng.choice(options)
        state, _ = apply(state, action)
        out.append(state)
    return out


# -- the prior (C1, C2) ---------------------------------------------------------------------


@pytest.mark.parametrize("deal", [TWO_DEAL, README_DEAL, FOUR_DEAL])
def test_c2_prior_drop_marginal_counts_the_unseen_copies(deal: Deal) -> None:
    players = len(deal.hands)
    for seat in range(players):
        prior = deal_prior(players, seat, deal.hands[seat], deal.stash)
        unseen = Counter(unknown_cards(deal.hands[seat], deal.stash))
        drop: dict[int, float] = {}
        for (value, hands), p in prior.items():
            drop[value] = drop.get(value, 0.0) + p
            assert hands[seat] == deal.hands[seat]
        total = sum(unseen.values())
        assert drop == pytest.approx({v: n / total for v, n in unseen.items()})
        assert sum(prior.values()) == pytest.approx(1.0)


def test_c2_prior_weighs_configurations_by_their_shuffles() -> None:
    # 3 players, seat 0 holds 0 0 1, stash 0 1 3: unseen 0 1 2 2 3 4 5.
    prior = deal_prior(3, 0, (0, 0, 1), (0, 1, 3))
    a = prior[(5, ((0, 0, 1), (0, 1, 2), (2, 3, 4)))]
    b = prior[(5, ((0, 0, 1), (0, 2, 2), (1, 3, 4)))]
    assert a == pytest.approx(2 * b)  # two shuffles split the 2s, one keeps them together
    unknown = unknown_cards((0, 0, 1), (0, 1, 3))
    assert shuffles(unknown, ((5,), (0, 1, 2), (2, 3, 4))) == 2  # which 2 goes where
    assert shuffles(unknown, ((5,), (0, 2, 2), (1, 3, 4))) == 1  # both 2s in one hand
    # One configuration per (Drop, split of the other six unseen cards into two hands).
    assert len(prior) == sum(
        len(splits(tuple(sorted(unknown[:i] + unknown[i + 1 :])), 2, 3))
        for i in range(len(unknown))
        if i == 0 or unknown[i] != unknown[i - 1]
    )


def test_c1_prior_refuses_cards_that_are_not_in_the_deck() -> None:
    with pytest.raises(IllegalAction):
        deal_prior(2, 0, (5, 5, 0, 0, 0), (1, 1))
    with pytest.raises(IllegalAction):
        deal_prior(3, 0, (0, 0), (1, 1, 2))


def test_splits_share_a_multiset_into_hands() -> None:
    assert splits((0, 0, 1, 1), 2, 2) == (((0, 0), (1, 1)), ((0, 1), (0, 1)), ((1, 1), (0, 0)))
    assert splits((), 0, 3) == ((),)


# -- properties over random games -----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("model", MODELS)
def test_c13_the_truth_is_always_possible_and_probabilities_sum_to_one(
    players: int, model: str
) -> None:
    for seed in range(6):
        beliefs = [empty_belief(seat, players, model) for seat in range(players)]
        seen = [0] * players
        for state in random_states(players, seed):
            if state.pending is None:
                break
            for seat in range(players):
                v = view(state, seat)
                belief = settle(update(beliefs[seat], v["log"][seen[seat] :]), v["pending"])
                beliefs[seat], seen[seat] = belief, len(v["log"])
                assert belief.probs[(state.drop, state.hands)] > 0.0
                assert sum(belief.probs.values()) == pytest.approx(1.0, abs=1e-12)
                assert hand_distribution(belief, seat) == pytest.approx({state.hands[seat]: 1.0})
                for out in state.eliminated:
                    assert hand_distribution(belief, out) == pytest.approx({state.hands[out]: 1.0})


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("model", MODELS)
def test_incremental_updates_equal_the_posterior_from_scratch(players: int, model: str) -> None:
    for seed in range(3):
        seat = seed % players
        belief = empty_belief(seat, players, model)
        seen = 0
        for state in random_states(players, 100 + seed, steps=80):
            if state.pending is None:
                break
            v = view(state, seat)
            belief = settle(update(belief, v["log"][seen:]), v["pending"])
            seen = len(v["log"])
            expected = belief_from_view(v, model).probs
            assert set(belief.probs) == set(expected)
            for config, p in expected.items():
                assert belief.probs[config] == pytest.approx(p, abs=1e-12)


# -- particular entries ---------------------------------------------------------------------


def test_c7_a_no_to_ones_own_sale_pins_the_drop_in_two_player_games() -> None:
    # Seat 0 holds 1 1 2 2 3, stash 3 4; unseen 0 0 0 0 1 5 are The Drop and seat 1's hand.
    deal = Deal.of(5, (3, 4), ((1, 1, 2, 2, 3), (0, 0, 0, 0, 1)))
    state, _ = play(table(deal, 0), SellSecrets(0, 1, (2, 3)))
    belief = belief_from_view(view(state, 0))
    assert drop_distribution(belief) == pytest.approx({5: 1.0})
    assert pair_success(belief, (2, 3)) == pytest.approx(1.0)
    assert pair_success(belief, (1, 3)) == 0.0


def test_c2_the_prior_is_the_posterior_at_the_deal() -> None:
    state = table(README_DEAL, 0)
    belief = belief_from_view(view(state, 1))
    assert dict(belief.probs) == deal_prior(3, 1, (1, 2, 3), (0, 1, 3))
    expected = {0: 3 / 7, 1: 1 / 7, 2: 1 / 7, 4: 1 / 7, 5: 1 / 7}
    assert drop_distribution(belief) == pytest.approx(expected)
    assert drop_entropy(drop_distribution(belief)) > 1.5


def test_c8_ones_own_failed_grab_shows_the_drop() -> None:
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 0, 3), Grab(0, (0, 1)))
    belief = belief_from_view(view(state, 0))
    assert drop_distribution(belief) == pytest.approx({2: 1.0})
    assert 0 in belief.eliminated


def test_c10_a_finished_round_is_one_configuration() -> None:
    # Seat 0 takes a 1 and grabs 1+1 (The Drop is 2): every card is revealed, a new deal follows.
    state, _ = play(table(README_DEAL, 0, README_DEAL), SwapStash(0, 0, 1), Grab(0, (1, 1)))
    log = view(state, 0)["log"]
    finished = log[: [e["kind"] for e in log].index("round_end") + 1]
    belief = update(empty_belief(0, 3), finished)
    assert len(belief.probs) == 1
    ((drop, hands),) = belief.probs
    assert drop == 2 and sum(map(len, hands)) == 9


def test_c4_a_third_partys_trade_waits_until_it_is_known_to_be_done() -> None:
    # Seat 1 offers seat 2 a card; until seat 2 answers the hands have not moved (C4).
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 0, 3), EndTurn(0), ShareInfo(1, 2, 1))
    waiting = belief_from_view(view(state, 0))
    assert [item.kind for item in waiting.queue] == ["give", "may_grab"]
    assert waiting.probs[(state.drop, state.hands)] > 0.0
    state, _ = play(state, GiveCard(2, 5))
    done = belief_from_view(view(state, 0))
    assert [item.kind for item in done.queue] == ["may_grab"]
    assert done.probs[(state.drop, state.hands)] > 0.0


def test_uniform_and_consistent_differ_only_in_seen_choices() -> None:
    # A swap is a seen choice: UNIFORM weighs the mover's hand by 1/options, CONSISTENT does not.
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 0, 3), EndTurn(0), SwapStash(1, 2, 0))
    uniform = belief_from_view(view(state, 0), UNIFORM)
    consistent = belief_from_view(view(state, 0), CONSISTENT)
    assert set(uniform.probs) == set(consistent.probs)
    assert dict(uniform.probs) != pytest.approx(dict(consistent.probs))


def test_queries_are_marginals_of_the_posterior() -> None:
    states = random_states(3, 7, steps=30)
    belief = belief_from_view(view(states[-1], 2))
    joint = joint_drop_hand(belief, 0)
    assert sum(joint.values()) == pytest.approx(1.0)
    for drop, p in drop_distribution(belief).items():
        assert sum(q for (d, _), q in joint.items() if d == drop) == pytest.approx(p)
        assert pair_success(belief, (0, drop)) == pytest.approx(p)
    hands = hand_distribution(belief, 0)
    for hand, p in hands.items():
        assert sum(q for (_, h), q in joint.items() if h == hand) == pytest.approx(p)


def test_entries_from_a_driver_or_the_past_are_ignored_or_restart() -> None:
    v = view(table(README_DEAL, 0), 1)
    log: list[dict[str, Any]] = [{"kind": "round_void", "public": True, "round": 0}, *v["log"]]
    assert round_entries(log) == v["log"]
    assert dict(update(empty_belief(1, 3), log).probs) == dict(belief_from_view(v).probs)
    assert round_entries([]) == []
    assert empty_belief(1, 3).probs == {}


def test_c13_refuses_a_spectator_an_unknown_model_and_an_impossible_log() -> None:
    state = table(README_DEAL, 0)
    with pytest.raises(IllegalAction):
        belief_from_view(view(state, None))
    with pytest.raises(IllegalAction):
        belief_from_view(view(state, 0), "clairvoyant")
    with pytest.raises(IllegalAction):
        empty_belief(0, 3, "clairvoyant")
    # Seat 0 holds no 4, yet a log claims it swapped one away.
    v = view(state, 1)
    fake = {"kind": "swap_stash", "public": True, "seat": 1, "give": 4, "take": 0}
    with pytest.raises(IllegalAction):
        update(belief_from_view(v), [fake])


def test_the_deck_is_what_the_prior_shares_out() -> None:
    for players, deal in ((2, TWO_DEAL), (3, README_DEAL), (4, FOUR_DEAL)):
        for (drop, hands), _ in deal_prior(players, 0, deal.hands[0], deal.stash).items():
            assert Counter([drop, *deal.stash, *(c for h in hands for c in h)]) == Counter(DECK)
