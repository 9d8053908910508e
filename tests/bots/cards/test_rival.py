"""The two-seat opponent model: the opponent's exact posterior, guessed from one view (C12)."""

from __future__ import annotations

from deaddrop.bots.cards.expert import ExpertBot
from deaddrop.bots.cards.rival import dealt_hand, grab_danger, rival_belief
from deaddrop.engine.cards import EndTurn, Setup, apply, start, view
from deaddrop.engine.cards.inference import CONSISTENT, belief_from_view, round_entries


def test_c12_at_two_seats_the_opponents_posterior_is_guessed_exactly() -> None:
    """Given its true hand, the guess equals the posterior the opponent holds next turn."""
    checked = 0
    for game in range(4):
        state = start(Setup(players=2, seed=game))
        bots = [ExpertBot(1), ExpertBot(2)]
        guessed = None
        while state.winner is None:
            seat = state.pending.seat
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
                    sorted(_dealt(seen, state, other))
                )
                guessed = dict(rival_belief(seen, other, hand).probs)
            state = apply(state, action)[0]
    assert checked > 20


def _dealt(seen: dict, state: object, seat: int) -> list[int]:
    """The seat's dealt hand this round, from its own view (test-only: reads the state)."""
    entries = round_entries(view(state, seat)["log"])  # type: ignore[arg-type]
    return next(e["hand"] for e in entries if e["kind"] == "hand")


def test_c8_c9_the_danger_splits_the_opponents_grabs_into_wins_and_gifts() -> None:
    """Probabilities over our posterior: a grab either matches or fails, never both."""
    state = start(Setup(players=2, seed=5))
    bot = ExpertBot(3)
    seen = view(state, state.pending.seat)
    while seen["pending"]["kind"] != "grab":
        state = apply(state, bot.choose(seen))[0]
        seen = view(state, state.pending.seat)
    belief = belief_from_view(seen, CONSISTENT)
    for ours in range(6):
        danger = grab_danger(seen, belief, ours)
        assert 0.0 <= danger.beaten + danger.gift <= danger.grabs + 1e-9
        assert danger.grabs <= 1.0 + 1e-9
