"""The only opponent's knowledge at a table of two, guessed exactly from one seat's view (C12).

At two seats every trade and sale is between the two players, so both see every card that
moves (C4–C7) and the opponent's log is this seat's log with its own dealt hand in place of
ours. Given a guess at the hidden cards (a configuration of our exact posterior), the
opponent's dealt hand follows by undoing the moves of the log, and its exact posterior is the
one our own inference would keep in its seat. So for each configuration we know how sure the
opponent is of The Drop, which pair it would grab with, and whether that grab would match.

`grab_danger` sums this over our posterior for the grab decision (C8) of the master: the
chance the opponent grabs on its next turn and wins (C8), and the chance it grabs and fails,
which hands us the round (C9). The opponent is modelled as grabbing by the expert's rule (τ,
`grab_threshold`) on the posterior it holds once our turn ends, less RIVAL_SLACK, since its
own action before it may grab sharpens that posterior further.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deaddrop.bots.cards.expert import drop_dist, grab_threshold
from deaddrop.engine.cards.inference import (
    CONSISTENT,
    Belief,
    Hand,
    empty_belief,
    round_entries,
    settle,
    update,
)
from deaddrop.engine.cards.inference_model import moved
from deaddrop.engine.cards.legal import pairs

RIVAL_SLACK = 0.1
"""How far below its τ the opponent's present chance may be for it to grab next turn: its own
action first sharpens what it knows. 0.2 won 366 of 700 games against the expert (seeds 21
to 34) where 0.1 won 367: no better."""


@dataclass(frozen=True, slots=True)
class Danger:
    """What waiting one more turn risks and offers at a table of two (C8, C9)."""

    beaten: float
    """P(the opponent grabs next turn and matches The Drop, and our best pair would have)."""
    gift: float
    """P(the opponent grabs next turn and fails: the round is ours, C9)."""
    grabs: float
    """P(the opponent grabs next turn at all)."""


def dealt_hand(hand: Hand, seat: int, entries: Sequence[Mapping[str, Any]]) -> Hand:
    """The hand `seat` was dealt, from its hand now, undoing the round's moves (C4–C7)."""
    for entry in reversed(entries):
        kind = entry["kind"]
        if kind in ("share_info_cards", "sell_secrets_cards"):
            mover = entry["seat"]
            other = entry["with"] if kind == "share_info_cards" else entry["to"]
            if seat == mover:
                hand = moved(hand, entry["receive"], entry["give"])
            elif seat == other:
                hand = moved(hand, entry["give"], entry["receive"])
        elif kind == "swap_stash" and entry["seat"] == seat:
            hand = moved(hand, entry["take"], entry["give"])
    return hand


def rival_belief(view: Mapping[str, Any], seat: int, hand: Hand) -> Belief:
    """The exact posterior `seat` holds now if its hand is `hand` (two seats only)."""
    entries = list(round_entries(view["log"]))
    dealt = dealt_hand(hand, seat, entries)
    theirs = [
        {**e, "seat": seat, "hand": list(dealt)} if e["kind"] == "hand" else e for e in entries
    ]
    belief = update(empty_belief(seat, view["players"], CONSISTENT), theirs)
    return settle(belief, {"seat": seat, "kind": "action"})


def grab_danger(view: Mapping[str, Any], belief: Belief, ours: int) -> Danger:
    """The opponent's next-turn grab, summed over our posterior; `ours` is our pair's sum."""
    me = view["viewer"]
    (seat,) = [s for s in range(view["players"]) if s != me]
    threshold = grab_threshold({**view, "viewer": seat}) - RIVAL_SLACK
    verdicts: dict[Hand, int | None] = {}  # their hand -> the sum they would grab, or None
    beaten = gift = grabs = 0.0
    for (drop, hands), p in belief.probs.items():
        hand = hands[seat]
        if hand not in verdicts:
            verdicts[hand] = _their_grab(view, seat, hand, threshold)
        total = verdicts[hand]
        if total is None:
            continue
        grabs += p
        if total != drop:
            gift += p
        elif ours == drop:
            beaten += p
    return Danger(beaten, gift, grabs)


def _their_grab(view: Mapping[str, Any], seat: int, hand: Hand, threshold: float) -> int | None:
    """The sum the opponent would grab with next turn, or None if it would wait."""
    drop = drop_dist(rival_belief(view, seat, hand))
    sums = [a + b for a, b in pairs(hand) if a + b <= 5]
    if not sums:
        return None
    best = max(sums, key=lambda s: drop[s])
    return best if drop[best] >= threshold - 1e-9 else None
