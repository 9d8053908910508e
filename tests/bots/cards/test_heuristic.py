"""The heuristic Cards bot: a sound card count; it grabs only when the count pins The Drop."""

from __future__ import annotations

from deaddrop.bots.cards.heuristic import HeuristicBot, count_from_view
from deaddrop.bots.cards.play import Table
from deaddrop.bots.cards.random_bot import RandomBot
from deaddrop.engine.cards import (
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

# 2 players, Drop 4: seat 0 holds 0 1 1 2 3, seat 1 holds 0 0 1 2 3 (no 4), Stash 0 5.
PIN_DEAL = Deal.of(4, (0, 5), ((0, 1, 1, 2, 3), (0, 0, 1, 2, 3)))


def _table(deal: Deal = PIN_DEAL) -> State:
    return start(Setup(len(deal.hands), 0, Options(), 0, (deal,)))


def _greedy(seed: int = 0) -> HeuristicBot:
    return HeuristicBot(seed, explore=0.0)


def test_c7_a_no_to_its_own_sale_pins_the_drop_and_it_grabs() -> None:
    # Seat 0 shows 1 and 3 (sum 4): seat 1 has no 4, and the only unseen 4 must be The Drop.
    state, _ = apply(_table(), SellSecrets(0, 1, (1, 3)))
    count = count_from_view(view(state, 0))
    assert count.weights() == [0, 0, 0, 0, 1, 0]
    assert _greedy().choose(view(state, 0)) == Grab(0, (1, 3))


def test_c8_no_grab_while_the_drop_is_not_pinned() -> None:
    state, _ = apply(_table(), SwapStash(0, 2, 5))
    odds = count_from_view(view(state, 0)).drop_odds()
    assert max(odds) < 1.0
    assert _greedy().choose(view(state, 0)) == EndTurn(0)


def test_c4_as_target_it_keeps_the_pair_for_a_pinned_drop() -> None:
    state, _ = apply(_table(), SellSecrets(0, 1, (1, 3)))
    state, _ = apply(state, EndTurn(0))
    state, _ = apply(state, ShareInfo(1, 0, 0))
    give = _greedy().choose(view(state, 0))
    assert isinstance(give, GiveCard)
    assert give.card != 3  # its only 3: giving it breaks the (1, 3) pair for The Drop


def test_c8_a_failed_grab_rules_its_sum_out() -> None:
    deal = Deal.of(5, (0, 0, 1), ((0, 1, 2), (0, 3, 4), (1, 2, 3)))
    state, _ = apply(_table(deal), SwapStash(0, 0, 0))
    state, _ = apply(state, Grab(0, (1, 2)))  # 3 is not The Drop: seat 0 is out
    count = count_from_view(view(state, 1))
    assert count.weights()[3] == 0
    assert 0 not in count.living


def _check_count(state: State, seat: int) -> None:
    """The count never exceeds the truth and never rules The Drop out."""
    count = count_from_view(view(state, seat))
    assert count.weights()[state.drop] > 0
    located = count.located()
    for value in range(6):
        assert located[value] <= sum(state.hands[s].count(value) for s in count.living)
    for other in count.living:
        hand = state.hands[other]
        assert all(count.sure[other][v] <= hand.count(v) for v in range(6))
        assert not any(v in hand for v in count.none[other])


def test_c12_the_count_is_a_lower_bound_and_the_drop_stays_a_candidate() -> None:
    for seed in range(40):
        players = 2 + seed % 3
        bots = [HeuristicBot(seed + s) if (seed + s) % 2 else RandomBot(s) for s in range(players)]
        table = Table(Setup(players, seed, Options(grab_face_down=seed % 4 == 1)), bots)
        while not table.over:
            state = table.state
            for seat in range(players):
                if seat not in state.eliminated:
                    _check_count(state, seat)
            table.step()


def test_heuristic_grabs_never_fail_and_its_choices_are_legal() -> None:
    grabs = 0
    for seed in range(24):
        players = 2 + seed % 3
        # Seats alternate heuristic and random, so rounds end soon and both meet every seat.
        bots = [
            HeuristicBot(seed * 10 + s) if s % 2 == seed % 2 else RandomBot(s)
            for s in range(players)
        ]
        table = Table(Setup(players, seed), bots)
        while not table.over:
            state = table.state
            assert state.pending is not None
            seat = state.pending.seat
            if isinstance(bots[seat], HeuristicBot):
                choice = HeuristicBot(seed).choose(view(state, seat))
                assert choice in legal_actions(state)
            table.step()
            last = table.actions[-1]
            if isinstance(last, Grab) and isinstance(bots[last.seat], HeuristicBot):
                grabs += 1
                assert table.failed_grabs[last.seat] == 0  # it grabs only on a sound pin
    assert grabs > 0
