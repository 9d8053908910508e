"""The expert Cards bot: plays from the exact posterior of its view (C12, C13).

It keeps an `inference.Belief` for the current round, folds in each new log entry, and looks
one step ahead over it. It uses the CONSISTENT model of others' choices (`inference`): purposeful
players (who rarely grab and keep their pairs) make UNIFORM's likelihoods of seen choices pile
up over a long round into confident mistakes; CONSISTENT only asks a seen choice to be legal.

The grab rule (C8). At the end of its turn it grabs with the pair whose sum is most likely
The Drop when that chance q reaches a threshold τ, else it ends the turn:

    τ = GRAB_BASE − GRAB_PER_OPPONENT · (opponents still in the round − 1)
          − GRAB_MATCH_POINT · [an opponent needs one more token]
          − GRAB_LATE · max(0, rounds of turns so far − GRAB_PATIENCE)

Why: a failed grab loses the round for sure (C8; with one opponent left it hands them the
round at once, C9), while waiting one more turn loses it only if someone grabs correctly
first. Each turn the posterior sharpens, so with a single opponent waiting is cheap and τ is
high (0.9). Every further opponent is one more chance per round of turns that someone grabs
before this seat moves again, so τ drops. When an opponent is one token from the game (C11),
losing this round to them costs the game, so a good chance now is worth more than a better
one later. A long round means the table is stuck (the card a pair needs sits in a hand that
keeps it), so waiting buys less and less: τ falls. A certain pair (q = 1) is always grabbed.

The action (C4–C7). Each option is scored by a one-step lookahead over what it may show:
the card received in Share Info (uniform over the target's distinct values, weighted by the
posterior of its hand), the yes/no of a sale (the truth about the buyer's hand), or nothing
(Swap the Stash, a face-up trade). For each outcome it takes the resulting hand and the
posterior over The Drop, and values them as

    U = q + COVER · (chance some pair of the hand sums to The Drop) + INFO · (bits learnt)

so it prefers actions that bring it a pair for the likely Drop and, failing that, the ones
that best sharpen its posterior (expected entropy reduction). What it shows costs too:
HELP times the chance a card it gives away completes the receiver's pair for The Drop, and
LEAK for each card of its hand an opponent sees for the first time (a sale shows two to the
buyer, a trade one to the target, a swap one to everyone): each tells them that card is not
The Drop. Against the heuristic bot in 2-player games the leak cost alone lifted the expert
from about 63% to 75% of games.

Two-step choices: as the target of Share Info it gives the card whose loss hurts its own
pairs least, expecting the mover's card from the posterior, and least likely to complete the
mover's pair; after a yes it hands back the shown card it needs least. Ties are broken by
its seeded RNG, so a seed and a sequence of views give the same choices.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import log2
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
from deaddrop.engine.cards.inference import (
    CONSISTENT,
    Belief,
    Hand,
    empty_belief,
    joint_drop_hand,
    round_entries,
    settle,
    update,
)
from deaddrop.engine.cards.inference_model import moved
from deaddrop.engine.cards.legal import distinct, legal_actions_for_view, pairs

VALUES = range(6)
"""C1: card values, and so every possible value of The Drop."""
GRAB_BASE = 0.9
"""τ with one opponent left in the round."""
GRAB_PER_OPPONENT = 0.1
"""How much τ drops for each further opponent still in the round."""
GRAB_MATCH_POINT = 0.1
"""How much τ drops when an opponent needs one more token to win the game (C11)."""
GRAB_PATIENCE = 12
"""Rounds of turns after which a stalled table makes τ fall."""
GRAB_LATE = 0.03
"""How much τ falls for each round of turns past GRAB_PATIENCE."""
_MAIN_KINDS = frozenset({"share_info", "swap_stash", "sell_secrets"})
COVER = 0.5
"""Weight of the chance that some pair of the hand sums to The Drop."""
INFO = 0.05
"""Weight of one bit of expected entropy reduction of The Drop."""
HELP = 0.3
"""Weight of the chance a card given away completes the receiver's pair for The Drop."""
LEAK = 0.2
"""Cost of each card an opponent newly sees (it tells them that card is not The Drop)."""
_TIE = 1e-9

Dist = tuple[float, ...]
"""A distribution over The Drop's value, indexed by value."""


@lru_cache(maxsize=4096)
def sums(hand: Hand) -> tuple[int, ...]:
    """The distinct sums of the hand's pairs that could be The Drop (at most 5)."""
    return tuple(sorted({a + b for a, b in pairs(hand) if a + b <= 5}))


def chance(hand: Hand, drop: Dist) -> float:
    """q: the chance the hand's best pair matches The Drop (C8)."""
    return max((drop[s] for s in sums(hand)), default=0.0)


def entropy(drop: Dist) -> float:
    """Shannon entropy of The Drop, in bits."""
    return -sum(p * log2(p) for p in drop if p > 0.0)


def _normal(weights: Sequence[float]) -> Dist:
    total = sum(weights)
    return tuple(w / total for w in weights)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One thing an action may show, its probability and The Drop's posterior after it."""

    p: float
    """Probability of the outcome."""
    drop: Dist
    """Posterior over The Drop given the outcome."""
    card: int | None
    """The card received (Share Info) or the sum (a yes), None when nothing moves."""


class ExpertBot:
    """Plays from the exact posterior over The Drop and the hidden hands."""

    name = "expert"

    def __init__(self, seed: int = 0, model: str = CONSISTENT) -> None:
        self._rng = random.Random(seed)
        self.model = model
        self._log_len = 0
        self._last: Mapping[str, Any] | None = None
        self._round_start = -1
        self._belief: Belief | None = None

    # -- the posterior, kept up to date ------------------------------------------------

    def belief(self, view: Mapping[str, Any]) -> Belief:
        """The exact posterior of the view, updated from the last one when it continues it."""
        log: list[Mapping[str, Any]] = view["log"]
        start = len(log) - len(round_entries(log))
        belief = self._belief
        fresh = (
            belief is None
            or belief.seat != view["viewer"]
            or start != self._round_start
            or len(log) < self._log_len
            or (self._log_len > 0 and log[self._log_len - 1] != self._last)
        )
        if fresh or belief is None:
            belief = update(empty_belief(view["viewer"], view["players"], self.model), log[start:])
        else:
            belief = update(belief, log[self._log_len :])
        belief = settle(belief, view["pending"])
        self._belief, self._round_start, self._log_len = belief, start, len(log)
        self._last = log[-1] if log else None
        return belief

    # -- decisions ---------------------------------------------------------------------

    def choose(self, view: Mapping[str, Any]) -> Action:
        """The expert's action for the viewer, from its view alone (C13)."""
        options = legal_actions_for_view(view)
        if not options:
            raise ValueError("the view holds no decision for this seat")
        belief = self.belief(view)
        hand: Hand = tuple(view["hand"])
        drop = drop_dist(belief)
        pending = view["pending"]
        kind = pending["kind"]
        if kind == "grab":
            return self._grab_or_end(view, options, hand, drop)
        if kind == "give":
            giver = _Joint(belief, pending["mover"])
            return self._best(options, lambda a: self._give_value(a, hand, drop, giver))
        if kind == "hand_back":
            total = pending["show"][0] + pending["show"][1]
            return self._best(options, lambda a: _value(_back(hand, a, total), drop))
        return self._best(options, self._action_scorer(view, belief))

    def ranked(self, view: Mapping[str, Any]) -> list[tuple[float, Action]]:
        """The viewer's main actions (C4–C7) with the expert's scores, best first."""
        score = self._action_scorer(view, self.belief(view))
        scored = [(score(option), option) for option in legal_actions_for_view(view)]
        return sorted(scored, key=lambda pair: -pair[0])

    def _action_scorer(self, view: Mapping[str, Any], belief: Belief) -> Callable[[Action], float]:
        hand: Hand = tuple(view["hand"])
        drop = drop_dist(belief)
        joints = {seat: _Joint(belief, seat) for seat in _living_others(view)}
        seen = seen_by(view)
        return lambda a: _action_value(a, hand, drop, joints) - LEAK * _leak(a, seen, view)

    def _grab_or_end(
        self, view: Mapping[str, Any], options: Sequence[Action], hand: Hand, drop: Dist
    ) -> Action:
        grabs = [a for a in options if isinstance(a, Grab) and sum(a.pair) <= 5]
        if not grabs:
            return EndTurn(view["viewer"])
        best = self._best(grabs, lambda a: drop[sum(a.pair)] if isinstance(a, Grab) else 0.0)
        assert isinstance(best, Grab)
        if drop[sum(best.pair)] >= grab_threshold(view) - _TIE:
            return best
        return EndTurn(view["viewer"])

    def _give_value(self, action: Action, hand: Hand, drop: Dist, giver: _Joint) -> float:
        """C4: keep what serves own pairs, expecting the mover's card from the posterior."""
        assert isinstance(action, GiveCard)
        value = sum(o.p * _value(moved(hand, action.card, o.card), o.drop) for o in giver.offers())
        return value - HELP * giver.completes(action.card)

    def _best(self, options: Sequence[Action], score: Callable[[Action], float]) -> Action:
        scored = [(score(option), option) for option in options]
        top = max(value for value, _ in scored)
        best = [option for value, option in scored if value >= top - _TIE]
        return best[self._rng.randrange(len(best))]


def grab_threshold(view: Mapping[str, Any]) -> float:
    """τ: the chance of a match at which the expert grabs (see the module docstring)."""
    out = {entry["seat"] for entry in view["eliminated"]}
    opponents = sum(1 for s in range(view["players"]) if s != view["viewer"] and s not in out)
    tokens, me = view["tokens"], view["viewer"]
    needed = view["options"]["tokens_to_win"] - 1
    match_point = any(n >= needed for s, n in enumerate(tokens) if s != me)
    turns: int = sum(1 for entry in round_entries(view["log"]) if entry["kind"] in _MAIN_KINDS)
    late: int = max(0, turns // view["players"] - GRAB_PATIENCE)
    return min(
        1.0,
        GRAB_BASE
        - GRAB_PER_OPPONENT * max(0, opponents - 1)
        - GRAB_MATCH_POINT * match_point
        - GRAB_LATE * late,
    )


def drop_dist(belief: Belief) -> Dist:
    """The posterior over The Drop as a tuple indexed by value."""
    out = [0.0] * len(VALUES)
    for (drop, _), p in belief.probs.items():
        out[drop] += p
    return tuple(out)


def seen_by(view: Mapping[str, Any]) -> dict[int, Counter[int]]:
    """For each other seat, the cards of this seat's hand it has seen there this round (C12)."""
    me, hand = view["viewer"], Counter(view["hand"])
    out: dict[int, Counter[int]] = {s: Counter() for s in range(view["players"]) if s != me}

    def gone(card: int) -> None:
        for known in out.values():
            known[card] = max(0, known[card] - 1)

    for entry in round_entries(view["log"]):
        kind, seat = entry["kind"], int(entry.get("seat", -1))
        if kind in ("swap_stash", "share_info") and seat == me and "give" in entry:
            gone(entry["give"])  # public (C5, C6): everyone saw the card go and come
            for known in out.values():
                known[entry.get("take", entry.get("receive"))] += 1
        elif kind == "share_info_cards" and me in (seat, entry["with"]):
            other = entry["with"] if seat == me else seat
            given, got = (entry["give"], entry["receive"])[:: 1 if seat == me else -1]
            gone(given)
            out[other][got] += 1
        elif kind == "sell_secrets_shown" and seat == me:
            shown = Counter(entry["show"])
            out[entry["to"]] |= shown
        elif kind == "sell_secrets_cards" and me in (seat, entry["to"]):
            other = entry["to"] if seat == me else seat
            given, got = (entry["give"], entry["receive"])[:: 1 if seat == me else -1]
            gone(given)
            out[other][got] += 1
    return {s: known & hand for s, known in out.items()}


def _leak(action: Action, seen: Mapping[int, Counter[int]], view: Mapping[str, Any]) -> int:
    """How many (opponent, card) sightings of this seat's cards an action adds."""
    if isinstance(action, SellSecrets):
        return sum((Counter(action.show) - seen[action.target]).values())
    if isinstance(action, ShareInfo) and action.take is None:
        return int(seen[action.target][action.give] == 0)
    if isinstance(action, SwapStash | ShareInfo):
        # Public: every opponent still in the round sees the card given.
        return sum(1 for s in _living_others(view) if seen[s][action.give] == 0)
    return 0


def _living_others(view: Mapping[str, Any]) -> list[int]:
    out = {entry["seat"] for entry in view["eliminated"]}
    return [s for s in range(view["players"]) if s != view["viewer"] and s not in out]


def _value(hand: Hand, drop: Dist) -> float:
    """U without the information term: the grab chance now and the hand's cover."""
    return chance(hand, drop) + COVER * sum(drop[s] for s in sums(hand))


def _back(hand: Hand, action: Action, total: int) -> Hand:
    assert isinstance(action, HandBack)
    return moved(hand, action.card, total)


class _Joint:
    """The posterior over (The Drop, one other seat's hand), and what actions on it show."""

    def __init__(self, belief: Belief, seat: int) -> None:
        self.seat = seat
        self.joint = joint_drop_hand(belief, seat)
        self._shares: list[Outcome] | None = None
        self._sales: dict[int, tuple[Outcome, Outcome]] = {}

    def shares(self) -> list[Outcome]:
        """C4: the card this seat would give in Share Info, uniform over its distinct values."""
        if self._shares is None:
            acc: dict[int, list[float]] = {}
            for (drop, hand), p in self.joint.items():
                values = distinct(hand)
                for card in values:
                    acc.setdefault(card, [0.0] * len(VALUES))[drop] += p / len(values)
            self._shares = [Outcome(sum(w), _normal(w), card) for card, w in acc.items()]
        return self._shares

    def offers(self) -> list[Outcome]:
        """C4: the card a mover offers, as this seat expects it (the same model)."""
        return self.shares()

    def sale(self, total: int) -> tuple[Outcome, Outcome]:
        """C7: the yes and the no of a sale of this sum to this seat."""
        if total not in self._sales:
            yes, no = [0.0] * len(VALUES), [0.0] * len(VALUES)
            for (drop, hand), p in self.joint.items():
                (yes if total in hand else no)[drop] += p
            p_yes, p_no = sum(yes), sum(no)
            self._sales[total] = (
                Outcome(p_yes, _normal(yes) if p_yes > 0 else tuple(yes), total),
                Outcome(p_no, _normal(no) if p_no > 0 else tuple(no), None),
            )
        return self._sales[total]

    def completes(self, card: int) -> float:
        """The chance a card given to this seat completes a pair of its for The Drop."""
        return sum(p for (drop, hand), p in self.joint.items() if drop - card in hand)


def _info(drop: Dist, outcomes: Sequence[Outcome]) -> float:
    """Expected entropy reduction of The Drop over the outcomes (bits)."""
    return entropy(drop) - sum(o.p * entropy(o.drop) for o in outcomes if o.p > 0.0)


def _action_value(action: Action, hand: Hand, drop: Dist, joints: Mapping[int, _Joint]) -> float:
    """The one-step lookahead value of a main action (C4–C7)."""
    if isinstance(action, SwapStash):
        return _value(moved(hand, action.give, action.take), drop)
    if isinstance(action, ShareInfo):
        if action.take is not None:  # C5: a face-up card, nothing hidden moves
            return _value(moved(hand, action.give, action.take), drop)
        joint = joints[action.target]
        outcomes = joint.shares()
        value = sum(o.p * _value(moved(hand, action.give, o.card), o.drop) for o in outcomes)
        help_ = HELP * joint.completes(action.give)
        return value + INFO * _info(drop, outcomes) - help_
    assert isinstance(action, SellSecrets)
    a, b = action.show
    total = a + b
    if total > 5:
        return _value(hand, drop)  # C7: always no; nothing is learnt
    yes, no = joints[action.target].sale(total)
    value = no.p * _value(hand, no.drop) if no.p > 0.0 else 0.0
    if yes.p > 0.0:
        value += yes.p * max(_value(moved(hand, back, total), yes.drop) for back in (a, b))
    return value + INFO * _info(drop, (yes, no))
