"""The heuristic bot's card count: what its view shows of where each card is (C12, C13).

The cards this seat cannot see are The Drop and the hands of the other seats still in the
round: per value, `unseen = deck − own hand − Stash − eliminated hands`. Some unseen cards are
located in another hand: cards this seat gave away in trades and sales, cards shown to it in a
sale, cards taken from The Stash or from an eliminated hand (public). A trade or a yes-sale
between two other seats moves one card each way that it cannot see: each of the two may now
hold one fewer of any located value, and the two hands are pooled, so the cards located in
either stay located in one of them. Every update keeps "located" a lower bound, never more
than the truth. A failed grab shows The Drop is not the pair's sum (C8); a "no" to its own
sale shows the buyer holds no card of that sum (C7); a hand located in full holds nothing
else. The candidates for The Drop are the values with `unseen − located > 0`, not ruled out by
a failed grab, weighted by that difference.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deaddrop.engine.cards.deck import CARD_VALUES, DECK_COUNTS

MAX_SUM = 5
"""C7: the highest card; a larger sum can be neither The Drop nor a yes."""


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

    def traded(self, seat: int, gave: int, got: int) -> None:
        """The seat gave one card this seat saw and got another."""
        self.lost(seat, gave)
        self.gained(seat, got)

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
            count.traded(seat, entry["give"], entry["take"])
        elif kind == "share_info" and seat != me:
            if entry["face_up"]:  # C5: the mover takes a face-up card, public
                count.traded(seat, entry["give"], entry["receive"])
            elif entry["with"] != me:
                count.merge(seat, entry["with"])
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
        elif kind in ("share_info_cards", "sell_secrets_cards"):
            # C4, C7: only the two see the cards. "give" is what the mover (the seller) gave:
            # its own card in a share, the shown card handed back in a sale; "receive" is the
            # other seat's card (of the sum's value in a sale).
            other = entry["with"] if kind == "share_info_cards" else entry["to"]
            if seat == me:
                count.traded(other, entry["receive"], entry["give"])
            else:
                count.traded(seat, entry["give"], entry["receive"])
        elif kind == "eliminated" and seat != me:
            count.eliminated(seat, entry["hand"], entry["pair"])
