"""The heuristic Cards bot: simple card counting over what its view shows (C12, C13).

The count. The cards this seat cannot see are The Drop and the hands of the other seats still
in the round: per value, `unseen = deck − own hand − Stash − eliminated hands`. Some unseen
cards are located in another hand: cards this seat gave away in trades and sales, cards
shown to it in a sale, cards taken from The Stash or from an eliminated hand (public). A trade
or a yes-sale between two other seats moves one card each way that it cannot see: each of
the two may now hold one fewer of any located value, and the two hands are pooled, so the
cards located in either stay located in one of them. Every update keeps "located" a lower
bound, never more than the truth. A failed grab shows The Drop is not the pair's sum (C8); a
"no" to its own sale shows the buyer holds no card of that sum (C7); a hand located in full
holds nothing else.

The candidates for The Drop are the values with `unseen − located > 0`, not ruled out by a
failed grab, weighted by that difference. When every other seat in the round surely holds
no card of some unseen value, The Drop is that value.

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
from dataclasses import dataclass, field
from typing import Any

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
from deaddrop.engine.cards.deck import CARD_VALUES, DECK_COUNTS
from deaddrop.engine.cards.legal import legal_actions_for_view, pairs

MAX_SUM = 5
"""C7: the highest card; a larger sum can be neither The Drop nor a yes."""
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


@dataclass(slots=True)
class Count:
    """What one seat can count this round: unseen cards, cards known elsewhere, ruled-out sums."""

    me: int
    """The counting seat."""
    unseen: list[int]
    """Per value: copies neither in its hand, The Stash nor an eliminated hand."""
    living: list[int]
    """The other seats still in the round."""
    hand_sizes: list[int]
    """Cards in each seat's hand."""
    face_up: list[int]
    """Per value: copies one can take, in The Stash or an eliminated hand (C5, C6)."""
    sure: dict[int, list[int]] = field(default_factory=dict)
    """Seat → per value, how many cards it surely holds (a lower bound)."""
    groups: dict[int, int] = field(default_factory=dict)
    """Seat → pool id: seats whose hands traded out of sight of this seat share one pool."""
    known: dict[int, list[int]] = field(default_factory=dict)
    """Pool id → per value, cards surely somewhere in the pool's hands (a lower bound)."""
    none: dict[int, set[int]] = field(default_factory=dict)
    """Seat → values it is known to hold no card of."""
    ruled_out: set[int] = field(default_factory=set)
    """Sums of failed grabs: The Drop is none of them (C8)."""

    def lacks(self, seat: int, value: int) -> bool:
        """Whether the seat surely holds no card of the value."""
        return value in self.lacking(seat)

    def lacking(self, seat: int) -> set[int]:
        """The values the seat surely holds no card of."""
        sure = self.sure[seat]
        if sum(sure) == self.hand_sizes[seat]:  # a hand known in full holds nothing else
            return self.none[seat] | {v for v in CARD_VALUES if not sure[v]}
        return self.none[seat]

    def located(self) -> list[int]:
        """Per value, how many copies surely sit in the hands of the others in the round."""
        members: dict[int, list[list[int]]] = {}
        for seat in self.living:
            members.setdefault(self.groups[seat], []).append(self.sure[seat])
        out = [0] * len(CARD_VALUES)
        for pool, sures in members.items():
            known = self.known[pool]
            by_seat = (
                sures[0] if len(sures) == 1 else [sum(col) for col in zip(*sures, strict=True)]
            )
            for value in CARD_VALUES:
                out[value] += max(known[value], by_seat[value])
        return out

    def weights(self) -> list[int]:
        """Per value, how many unseen copies could be The Drop (0: ruled out)."""
        if self.living:
            lacked = set.intersection(*(self.lacking(s) for s in self.living))
            for value in lacked:
                if self.unseen[value]:
                    # Every hand in the round lacks it, so the unseen copy is The Drop.
                    return [int(v == value) for v in CARD_VALUES]
        located = self.located()
        return [
            0 if value in self.ruled_out else max(0, self.unseen[value] - located[value])
            for value in CARD_VALUES
        ]

    def drop_odds(self) -> list[float]:
        """The weights as a distribution over The Drop's value."""
        weights = self.weights()
        total = sum(weights)
        if total == 0:  # pragma: no cover - the count is a lower bound, so never happens
            return [1 / len(CARD_VALUES)] * len(CARD_VALUES)
        return [w / total for w in weights]

    def copy(self) -> Count:
        """An independent copy, to try an outcome on."""
        return Count(
            self.me,
            list(self.unseen),
            self.living,
            self.hand_sizes,
            list(self.face_up),
            {seat: list(cards) for seat, cards in self.sure.items()},
            dict(self.groups),
            {pool: list(cards) for pool, cards in self.known.items()},
            {seat: set(values) for seat, values in self.none.items()},
            self.ruled_out,
        )

    def gained(self, seat: int, card: int) -> None:
        """The seat took a card this seat knows."""
        self.sure[seat][card] += 1
        self.known[self.groups[seat]][card] += 1
        self.none[seat].discard(card)

    def lost(self, seat: int, card: int) -> None:
        """The seat gave away a card this seat saw; in a pool it may have been another copy."""
        for cards in (self.sure[seat], self.known[self.groups[seat]]):
            if cards[card]:
                cards[card] -= 1

    def shown(self, seat: int, cards: Sequence[int]) -> None:
        """The seat holds these cards now (shown in a sale)."""
        sure = self.sure[seat]
        for card in set(cards):
            sure[card] = max(sure[card], cards.count(card))

    def merge(self, a: int, b: int) -> None:
        """Two other seats swapped one unseen card each: pool what is known of both."""
        ga, gb = self.groups[a], self.groups[b]
        if ga != gb:
            members = [s for s in self.groups if self.groups[s] in (ga, gb)]
            self.known[ga] = [
                max(
                    self.known[ga][v], sum(self.sure[s][v] for s in members if self.groups[s] == ga)
                )
                + max(
                    self.known[gb][v], sum(self.sure[s][v] for s in members if self.groups[s] == gb)
                )
                for v in CARD_VALUES
            ]
            del self.known[gb]
            for seat in members:
                self.groups[seat] = ga
        for seat in (a, b):
            # Each gave away one card it is not known which: every value may be one fewer.
            self.sure[seat] = [max(0, n - 1) for n in self.sure[seat]]
        # A card that crossed came from a hand lacking the value only if both lacked it.
        both = {v for v in CARD_VALUES if self.lacks(a, v) and self.lacks(b, v)}
        self.none[a], self.none[b] = set(both), set(both)

    def eliminated(self, seat: int, hand: Sequence[int], pair: Sequence[int]) -> None:
        """The seat failed a grab: its pair's sum is not The Drop; its hand is face up now."""
        self.ruled_out.add(pair[0] + pair[1])
        self.sure[seat] = [0] * len(CARD_VALUES)  # its cards are face up, no longer hidden
        pool = self.known[self.groups[seat]]
        for card in hand:
            if pool[card]:
                pool[card] -= 1


def count_from_view(view: Mapping[str, Any]) -> Count:
    """The count of the viewer for the current round, from its view alone."""
    me = view["viewer"]
    seen = [0] * len(CARD_VALUES)
    for card in view["hand"]:
        seen[card] += 1
    for card in view["stash"]:
        seen[card] += 1
    out_of_round = {entry["seat"] for entry in view["eliminated"]}
    for entry in view["eliminated"]:
        for card in entry["hand"]:
            seen[card] += 1
    unseen = [DECK_COUNTS[value] - seen[value] for value in CARD_VALUES]
    others = [s for s in range(view["players"]) if s != me]
    living = [s for s in others if s not in out_of_round]
    face_up = [seen[value] - view["hand"].count(value) for value in CARD_VALUES]
    count = Count(me, unseen, living, list(view["hand_sizes"]), face_up)
    for seat in others:
        count.sure[seat] = [0] * len(CARD_VALUES)
        count.groups[seat] = seat
        count.known[seat] = [0] * len(CARD_VALUES)
        count.none[seat] = set()
    log = view["log"]
    start = len(log) - 1
    while start > 0 and log[start]["kind"] != "deal":
        start -= 1
    _read_round(count, log[start:])
    return count


def _read_round(count: Count, entries: Iterable[Mapping[str, Any]]) -> None:
    """Update the count with each entry of the round the seat saw, in order."""
    me = count.me
    sold: int | None = None  # the sum of this seat's own sale, until the answer comes
    for entry in entries:
        kind = entry["kind"]
        seat: int = entry.get("seat", -1)
        if kind == "swap_stash" and seat != me:
            count.lost(seat, entry["give"])
            count.gained(seat, entry["take"])
        elif kind == "share_info" and seat != me:
            if entry["face_up"]:  # C5: the mover takes a face-up card, public
                count.lost(seat, entry["give"])
                count.gained(seat, entry["receive"])
            elif entry["with"] != me:
                count.merge(seat, entry["with"])
        elif kind == "share_info_cards":
            # C4: only the two see the cards; "give" is the mover's, "receive" the target's.
            if seat == me:
                count.lost(entry["with"], entry["receive"])
                count.gained(entry["with"], entry["give"])
            else:
                count.lost(seat, entry["give"])
                count.gained(seat, entry["receive"])
        elif kind == "sell_secrets_shown":
            if seat == me:
                sold = entry["sum"]
            else:  # C7: shown to this seat, so the seller holds both cards
                count.shown(seat, entry["show"])
        elif kind == "sell_secrets":
            buyer = entry["to"]
            if seat == me and entry["answer"] == "no" and sold is not None and sold <= MAX_SUM:
                count.none[buyer].add(sold)
            elif me not in (seat, buyer) and entry["cards_moved"]:
                count.merge(seat, buyer)
        elif kind == "sell_secrets_cards":
            # "give" is the card handed back by the seller, "receive" the buyer's card of the sum.
            if seat == me:
                count.lost(entry["to"], entry["receive"])
                count.gained(entry["to"], entry["give"])
            else:
                count.lost(seat, entry["give"])
                count.gained(seat, entry["receive"])
        elif kind == "eliminated" and seat != me:
            count.eliminated(seat, entry["hand"], entry["pair"])


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
