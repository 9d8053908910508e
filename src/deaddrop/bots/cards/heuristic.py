"""The heuristic Cards bot: simple card counting over what its view shows (C12, C13).

The count (`heuristic_count`): per value, the copies this seat cannot see and how many of them
it has located in some hand; the candidates for The Drop are the values with copies not
located, weighted by how many. When every other seat in the round surely holds no card of some
unseen value, The Drop is that value.

The play. It grabs only when the count pins The Drop to one value and it holds a pair that
sums to it. Otherwise it scores each option by how likely its hand then holds a pair for The
Drop, plus a bonus for what the option teaches (a card received in Share Info, an answer in
Sell Secrets). It looks one step ahead: each outcome of an option (the card a trade may
bring, a sale's yes or no) updates a copy of the count. A hand is worth the odds of its best
pair (half a pair counts a little), plus a bonus once The Drop is pinned, less a little per
unseen copy not yet located. One decision in ten (never a grab) is random, which breaks the
stand-offs where every seat keeps the half pair the others need. Ties are broken by its
seeded RNG.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from deaddrop.bots.cards.heuristic_count import MAX_SUM, Count, count_from_view
from deaddrop.engine.cards.actions import (
    Action,
    EndTurn,
    GiveCard,
    Grab,
    HandBack,
    SellSecrets,
    ShareInfo,
    SwapStash,
)
from deaddrop.engine.cards.deck import CARD_VALUES
from deaddrop.engine.cards.legal import legal_actions_for_view, pairs

__all__ = [
    "MAX_SUM",
    "Count",
    "HeuristicBot",
    "count_from_view",
    "expected",
    "pair_odds",
    "position_value",
]

PIN_BONUS = 0.5
"""What knowing The Drop for sure is worth on top of a pair's odds: only then does it grab."""
LOCATE_BONUS = 0.1
"""What locating one more unseen card in some hand is worth: the count's progress to a pin."""
HALF_FROM_STASH = 0.5
"""Half a pair whose other card lies face up (The Stash, an eliminated hand), as a share."""
HALF_FROM_HAND = 0.25
"""Half a pair whose other card is hidden in some hand, as a share of a whole pair."""
EXPLORE = 0.1
"""Share of decisions (never a grab) taken at random: it breaks stand-offs where every seat
keeps the half pair the others need, which would otherwise stall a round for good."""
_TIE = 1e-9


def pair_odds(hand: Sequence[int], odds: Sequence[float], count: Count) -> float:
    """How close the hand is to a pair for The Drop: a pair counts fully, half a pair a little.

    Half a pair is a card whose complement can be had: from The Stash next turn (more), or
    from some hand (less). The best sum decides; the others keep the hand flexible.
    """
    cards = tuple(sorted(hand))
    made = {a + b for a, b in pairs(cards)}
    chances = []
    for total in CARD_VALUES:
        if not odds[total]:
            continue
        if total in made:
            closeness = 1.0
        else:
            closeness = 0.0
            for card in set(cards):
                need = total - card
                if need < 0:
                    continue
                if count.face_up[need]:
                    closeness = max(closeness, HALF_FROM_STASH)
                elif count.unseen[need] > (need == total):
                    closeness = max(closeness, HALF_FROM_HAND)
        chances.append(odds[total] * closeness)
    if not chances:
        return 0.0
    best = max(chances)
    return best + 0.1 * (sum(chances) - best)


def position_value(hand: Sequence[int], count: Count) -> float | None:
    """A hand under a count: its pair's odds, less what is left to locate before a grab.

    None when the count leaves The Drop nowhere: an outcome that cannot happen.
    """
    weights = count.weights()
    total = sum(weights)
    if total == 0:
        return None
    odds = [w / total for w in weights]
    # Each unseen copy not yet located in a hand is one step away from pinning The Drop.
    unlocated = total - 1
    pinned = PIN_BONUS if max(weights) == total else 0.0
    return pair_odds(hand, odds, count) + pinned - LOCATE_BONUS * unlocated


def expected(outcomes: Iterable[tuple[float, float | None]]) -> float:
    """The mean value over (weight, value) outcomes, leaving out the impossible ones."""
    possible = [(w, v) for w, v in outcomes if v is not None and w > 0]
    total = sum(w for w, _ in possible)
    if total == 0:
        return -1.0  # pragma: no cover - the current position is always possible
    return sum(w * v for w, v in possible) / total


def _swapped(hand: Sequence[int], out: int, into: int) -> list[int]:
    cards = list(hand)
    cards.remove(out)
    cards.append(into)
    return cards


def _traded(count: Count, other: int, gave: int, got: int) -> Count:
    """The count after this seat gives `gave` to another seat in the round and gets `got`."""
    after = count.copy()
    after.lost(other, got)
    after.unseen[got] -= 1  # now in this seat's hand
    after.unseen[gave] += 1  # now hidden in the other's hand, where it is known
    after.gained(other, gave)
    return after


class HeuristicBot:
    """Counts cards from its view and grabs only when the count pins The Drop."""

    name = "heuristic"

    def __init__(self, seed: int = 0, explore: float = EXPLORE) -> None:
        self._rng = random.Random(seed)
        self.explore = explore  # share of non-grab decisions taken at random; 0: greedy

    def choose(self, view: Mapping[str, Any]) -> Action:
        """The best-scoring legal action for the viewer under its card count."""
        options = legal_actions_for_view(view)
        if not options:
            raise ValueError("the view holds no decision for this seat")
        count = count_from_view(view)
        hand: list[int] = list(view["hand"])
        pending = view["pending"]
        kind = pending["kind"]
        if kind == "grab":
            return self._grab_or_end(options, count.drop_odds())
        if self.explore and self._rng.random() < self.explore:
            return options[self._rng.randrange(len(options))]
        if kind == "give":
            mover = pending["mover"]

            def give_value(option: Action) -> float:
                assert isinstance(option, GiveCard)
                after = count.copy()
                after.unseen[option.card] += 1  # it leaves this hand, known to be the mover's
                after.gained(mover, option.card)
                cards = list(hand)
                cards.remove(option.card)
                return expected([(1.0, position_value(cards, after))])

            return self._best(options, give_value)
        if kind == "hand_back":
            buyer, total = pending["buyer"], sum(pending["show"])

            def hand_back_value(option: Action) -> float:
                assert isinstance(option, HandBack)
                after = _traded(count, buyer, option.card, total)
                return expected([(1.0, position_value(_swapped(hand, option.card, total), after))])

            return self._best(options, hand_back_value)
        return self._best(options, lambda option: self._action_value(option, hand, count))

    def _grab_or_end(self, options: Sequence[Action], odds: Sequence[float]) -> Action:
        for option in options:
            if not isinstance(option, Grab):
                continue
            total = option.pair[0] + option.pair[1]
            if total <= MAX_SUM and odds[total] == 1.0:
                return option  # the count pins The Drop and this pair sums to it
        return next(o for o in options if isinstance(o, EndTurn))

    def _best(self, options: Sequence[Action], score: Callable[[Action], float]) -> Action:
        scored = [(score(option), option) for option in options]
        top = max(value for value, _ in scored)
        best = [option for value, option in scored if value >= top - _TIE]
        return best[self._rng.randrange(len(best))]

    def _action_value(self, action: Action, hand: list[int], count: Count) -> float:
        """The expected position after the action, looking one step ahead on the count."""
        if isinstance(action, SwapStash | ShareInfo) and action.take is not None:
            # C5, C6: a face-up card for a card put face up; nothing hidden moves.
            after = count.copy()
            after.face_up[action.take] -= 1
            after.face_up[action.give] += 1
            cards = _swapped(hand, action.give, action.take)
            return expected([(1.0, position_value(cards, after))])
        if isinstance(action, ShareInfo):
            return self._share_value(action, hand, count)
        if isinstance(action, SellSecrets):
            return self._sale_value(action, hand, count)
        return -1.0  # pragma: no cover - only main actions reach here

    def _share_value(self, action: ShareInfo, hand: list[int], count: Count) -> float:
        # The card received is unknown: weigh each value by its unseen copies not in The Drop.
        odds = count.drop_odds()
        lacking = count.none[action.target]
        give, target = action.give, action.target
        outcomes = [
            (
                0.0 if v in lacking else count.unseen[v] - odds[v],
                position_value(_swapped(hand, give, v), _traded(count, target, give, v)),
            )
            for v in CARD_VALUES
            if count.unseen[v]
        ]
        return expected(outcomes)

    def _sale_value(self, action: SellSecrets, hand: list[int], count: Count) -> float:
        a, b = action.show
        total, target = a + b, action.target
        if total > MAX_SUM:  # C7: always "no"; nothing moves and nothing is learnt
            return expected([(1.0, position_value(hand, count))])
        yes = _chance_holds(count, target, total)
        after_no = count.copy()
        after_no.none[target].add(total)
        # C7: the seller chooses which shown card goes back; it would pick the better one.
        after_yes = [
            position_value(_swapped(hand, back, total), _traded(count, target, back, total))
            for back in (a, b)
        ]
        best_yes = max((v for v in after_yes if v is not None), default=None)
        return expected([(1 - yes, position_value(hand, after_no)), (yes, best_yes)])


def _chance_holds(count: Count, seat: int, value: int) -> float:
    """A rough chance that the seat holds a card of the value."""
    if value in count.none[seat]:
        return 0.0
    if count.sure[seat][value]:
        return 1.0
    odds = count.drop_odds()
    copies = max(0.0, count.unseen[value] - odds[value])  # expected copies in hands
    in_hands = sum(count.hand_sizes[s] for s in count.living)
    share = count.hand_sizes[seat] / in_hands if in_hands else 0.0
    # Each unseen copy sits in this seat's hand about `share` of the time.
    return 1.0 - float((1 - share) ** copies)
