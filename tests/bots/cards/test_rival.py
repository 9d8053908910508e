"""The two-seat opponent model: the opponent's exact posterior, guessed from one view (C12)."""

from __future__ import annotations

import pytest

from deaddrop.bots.cards import master
from deaddrop.bots.cards.expert import ExpertBot
from deaddrop.bots.cards.rival import Danger, dealt_hand, grab_danger, rival_belief
from deaddrop.engine.cards import EndTurn, Grab, Setup, State, SwapStash, apply, start, view
from deaddrop.engine.cards.inference import CONSISTENT, belief_from_view, round_entries
from tests.bots.cards.test_expert import PIN_DEAL
from tests.engine.cards.helpers import play, table


def test_c12_at_two_seats_the_opponents_posterior_is_guessed_exactly() -> None:
    """Given its true hand, the guess equals the posterior the opponent holds next turn."""
    checked = 0
    for game in range(4):
        state = start(Setup(players=2, seed=game))
        bots = [ExpertBot(1), ExpertBot(2)]
        guessed = None
        while state.winner is None:
            seat = _decider(state)
            seen = view(state, seat)
            if guessed is not None and seen["pending"]["kind"] == "action":
                assert dict(belief_from_view(seen, CONSISTENT).probs) == guessed
                checked += 1
            guessed = None
            action = bots[seat].choose(seen)
            if seen["pending"]["kind"] == "grab" and isinstance(action, EndTurn):
                other = 1 - seat
                hand = tuple(sorted(state.hands[other]))
                assert dealt_hand(hand, other, round_entries(seen["log"])) == tuple(
                    sorted(_dealt(state, other))
                )
                guessed = dict(rival_belief(seen, other, hand).probs)
            state = apply(state, action)[0]
    assert checked > 20


def _decider(state: State) -> int:
    """The seat whose decision is pending."""
    assert state.pending is not None
    return state.pending.seat


def _dealt(state: State, seat: int) -> list[int]:
    """The seat's dealt hand this round, from its own view."""
    entries = round_entries(view(state, seat)["log"])
    hand: list[int] = next(e["hand"] for e in entries if e["kind"] == "hand")
    return hand


def test_c8_c9_the_danger_splits_the_opponents_grabs_into_wins_and_gifts() -> None:
    """Probabilities over our posterior: a grab either matches or fails, never both."""
    state = start(Setup(players=2, seed=5))
    bot = ExpertBot(3)
    seen = view(state, _decider(state))
    while seen["pending"]["kind"] != "grab":
        state = apply(state, bot.choose(seen))[0]
        seen = view(state, _decider(state))
    belief = belief_from_view(seen, CONSISTENT)
    for ours in range(6):
        danger = grab_danger(seen, belief, ours)
        assert 0.0 <= danger.beaten + danger.gift <= danger.grabs + 1e-9
        assert danger.grabs <= 1.0 + 1e-9


def test_c8_c9_the_two_seat_master_grabs_when_waiting_is_worth_less(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever its chance, it grabs when the opponent would more likely beat it than fail."""
    state, _ = play(table(PIN_DEAL, 0), SwapStash(0, 1, 4))
    seen = view(state, 0)
    assert seen["pending"]["kind"] == "grab"
    for beaten, gift, grabs in ((0.3, 0.1, True), (0.0, 0.0, False), (0.1, 0.3, False)):
        danger = Danger(beaten, gift, beaten + gift)
        monkeypatch.setattr(master, "grab_danger", lambda *_, d=danger: d)
        bot = master.MasterBot(0, budget=None)
        choice = bot.choose(seen)
        assert isinstance(choice, Grab) is grabs
        assert bot.weighed is not None
        grab, end = sorted(bot.weighed.options, key=lambda o: isinstance(o.action, EndTurn))
        # Waiting keeps at least the grab's chance, less the rounds lost, plus the gifts.
        assert end.score == pytest.approx(grab.score - beaten + gift)
