"""One step of the forward filter: a log entry's likelihood and transition over configurations.

`Tracker` holds the weights of the current round's configurations and the public table (The
Stash, who is out), and folds in one log entry at a time under one model of other seats'
choices (`inference_model`). Some decisions leave no entry (a third party's Give Card or
Hand Back, any End Turn): they wait in `queue` until a later entry, or the view's
`pending`, shows they were taken.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from deaddrop.engine.cards.inference_model import (
    MODELS,
    PENDING_KIND,
    UNIFORM,
    Deferred,
    Step,
    grab_matches,
    grab_options,
    main_options,
    moved,
    per_card,
    sale_matches,
    third_party_give,
    third_party_hand_back,
    with_hands,
)
from deaddrop.engine.cards.inference_prior import Config, Hand, deal_prior
from deaddrop.engine.cards.legal import distinct, pairs
from deaddrop.engine.core.errors import IllegalAction

Weights = dict[Config, float]


class Tracker:
    """The mutable filter state of one seat for one update; `inference.Belief` is its snapshot."""

    def __init__(
        self,
        seat: int,
        players: int,
        model: str,
        weights: Weights,
        stash: Hand,
        eliminated: tuple[int, ...],
        queue: tuple[Deferred, ...] = (),
        show: tuple[int, int] | None = None,
        hidden_grab: int | None = None,
    ) -> None:
        if model not in MODELS:
            raise IllegalAction("C13", f"unknown model {model!r}: one of {', '.join(MODELS)}")
        self.seat = seat
        self.players = players
        self.model = model
        self.uniform = model == UNIFORM
        self.weights = weights
        self.stash = stash
        self.eliminated = eliminated
        self.queue = list(queue)
        self.show = show
        self.hidden_grab = hidden_grab

    # -- weights -------------------------------------------------------------------------

    def _reweigh(self, factor: Callable[[Config], float]) -> None:
        """Multiply every configuration by a likelihood; drop the impossible; normalize."""
        out = {}
        for config, weight in self.weights.items():
            f = factor(config)
            if f:
                out[config] = weight * f
        self._set(out)

    def _step(self, step: Step) -> None:
        """Move every configuration to its successors, each with a probability; normalize."""
        out: Weights = {}
        for config, weight in self.weights.items():
            for new, f in step(config):
                if f:
                    out[new] = out.get(new, 0.0) + weight * f
        self._set(out)

    def _set(self, weights: Weights) -> None:
        total = sum(weights.values())
        if not total > 0.0:
            raise IllegalAction("C13", "the log is impossible under the model of hidden choices")
        self.weights = {config: weight / total for config, weight in weights.items()}

    def _main(self, mover: int, fits: Callable[[Config], float]) -> Callable[[Config], float]:
        """The likelihood of another seat's main action, given what of it this seat saw.

        UNIFORM: (options that fit what was seen) / (all its main options, C4–C7). CONSISTENT:
        `fits` as the caller gives it (1 or 0 when the whole action was seen).
        """
        if not self.uniform:
            return fits
        living = self.players - len(self.eliminated) - 1
        hands = next(iter(self.weights))[1]
        base = per_card(living, self.stash, [hands[seat] for seat in self.eliminated])
        return lambda c: fits(c) / main_options(c[1][mover], living, base)

    def _seen(self, options: int) -> float:
        """A choice of another seat this seat sees: 1/options (UNIFORM) or 1 (CONSISTENT)."""
        return 1.0 / options if self.uniform else 1.0

    # -- entries -------------------------------------------------------------------------

    def feed(self, entry: Mapping[str, Any]) -> None:
        """Fold one log entry (a `views.log_entry` dict) into the weights."""
        if self.queue:
            self._resolve_queue(entry)
        handler = _HANDLERS.get(entry["kind"])
        if handler is not None:
            handler(self, entry)

    def _resolve_queue(self, entry: Mapping[str, Any]) -> None:
        """Any later entry shows the queued decisions were taken; a grab replaces End Turn."""
        queue, self.queue = self.queue, []
        for item in queue:
            if item.kind == "may_grab" and entry["kind"] == "grab" and entry["seat"] == item.seat:
                continue  # the grab entry carries this decision's likelihood
            self._resolve(item)

    def settle(self, pending: Mapping[str, Any] | None) -> None:
        """Resolve the queued decisions the view's `pending` shows were already taken."""
        keep: list[Deferred] = []
        for item in self.queue:
            waiting = (
                pending is not None
                and pending["seat"] == item.seat
                and pending["kind"] == PENDING_KIND[item.kind]
            )
            if waiting or keep:
                keep.append(item)  # an undecided step holds back the ones after it
            else:
                self._resolve(item)
        self.queue = keep

    def _resolve(self, item: Deferred) -> None:
        if item.kind == "give":
            self._step(third_party_give(item.other, item.seat))
        elif item.kind == "hand_back":
            self._step(third_party_hand_back(item.seat, item.other))
        elif self.uniform:
            mover = item.seat
            # C8: End Turn is one of 1 + |pairs| grab options (seen: CONSISTENT weighs it 1).
            self._reweigh(lambda c: 1.0 / grab_options(c[1][mover]))

    def _queue_grab(self, mover: int) -> None:
        """C8: after another seat's action comes its unseen choice: grab or End Turn."""
        if mover != self.seat:
            self.queue.append(Deferred("may_grab", mover, -1))

    def deal(self, entry: Mapping[str, Any]) -> None:
        """C2: a new round; the prior waits for the seat's own hand."""
        self.weights = {}
        self.stash = tuple(entry["stash"])
        self.eliminated = ()
        self.queue = []
        self.show = None
        self.hidden_grab = None

    def hand(self, entry: Mapping[str, Any]) -> None:
        """C2: the seat's dealt hand gives the prior over the unseen cards."""
        if entry["seat"] == self.seat:
            prior = deal_prior(self.players, self.seat, tuple(entry["hand"]), self.stash)
            self.weights = dict(prior)

    def share_info(self, entry: Mapping[str, Any]) -> None:
        """C4/C5: a trade; face up with an eliminated seat, else only who traded is public."""
        me, mover, target = self.seat, entry["seat"], entry["with"]
        if entry["face_up"]:
            give, take = entry["give"], entry["receive"]
            seen = self._main(mover, lambda c: 1.0)

            def face_up(c: Config) -> Iterable[tuple[Config, float]]:
                hands = c[1]
                hand = hands[mover]
                if give not in hand:
                    return ()
                f = 1.0 if mover == me else seen(c)
                moves = (
                    (mover, moved(hand, give, take)),
                    (target, moved(hands[target], take, give)),
                )
                return (((c[0], with_hands(hands, *moves)), f),)

            self._step(face_up)
            self._queue_grab(mover)
        elif mover != me:
            if self.uniform:
                # Any of its distinct cards: which one shows later (to the target) or never.
                self._reweigh(self._main(mover, lambda c: len(distinct(c[1][mover]))))
            if target != me:
                self.queue.append(Deferred("give", target, mover))
                self._queue_grab(mover)

    def share_info_cards(self, entry: Mapping[str, Any]) -> None:
        """C4: the two cards of a trade this seat took part in."""
        mover, target, give, take = entry["seat"], entry["with"], entry["give"], entry["receive"]
        other = target if mover == self.seat else mover
        # The other party's card: its answer (C4), or the card it offered this seat.
        card = take if mover == self.seat else give

        def trade(c: Config) -> Iterable[tuple[Config, float]]:
            hands = c[1]
            hand = hands[other]
            if card not in hand:
                return ()
            moves = (
                (mover, moved(hands[mover], give, take)),
                (target, moved(hands[target], take, give)),
            )
            return (((c[0], with_hands(hands, *moves)), self._seen(len(distinct(hand)))),)

        self._step(trade)
        if mover != self.seat:
            self._queue_grab(mover)

    def swap_stash(self, entry: Mapping[str, Any]) -> None:
        """C6: public; the Stash card taken and the card given are seen by all."""
        mover, give, take = entry["seat"], entry["give"], entry["take"]
        seen = self._main(mover, lambda c: 1.0)
        me = self.seat

        def swap(c: Config) -> Iterable[tuple[Config, float]]:
            hand = c[1][mover]
            if give not in hand:
                return ()
            f = 1.0 if mover == me else seen(c)
            return (((c[0], with_hands(c[1], (mover, moved(hand, give, take)))), f),)

        self._step(swap)
        self.stash = moved(self.stash, take, give)
        self._queue_grab(mover)

    def sell_secrets_shown(self, entry: Mapping[str, Any]) -> None:
        """C7: the two cards shown; this seat is the seller or the buyer."""
        seller, show = entry["seat"], (entry["show"][0], entry["show"][1])
        self.show = show
        if seller != self.seat:
            self._reweigh(self._main(seller, lambda c: float(show in pairs(c[1][seller]))))

    def sell_secrets(self, entry: Mapping[str, Any]) -> None:
        """C7: the public answer; truthful, so it tells whether the buyer holds the sum."""
        seller, buyer, yes = entry["seat"], entry["to"], entry["answer"] == "yes"
        show, self.show = self.show, None
        if seller == self.seat and show is not None:
            total = show[0] + show[1]
            self._reweigh(lambda c: float((total <= 5 and total in c[1][buyer]) == yes))
            return
        if buyer == self.seat:
            if not yes:
                self._queue_grab(seller)
            return  # on yes the seller's hand back shows in sell_secrets_cards
        # The pair shown is unseen: uniform over the seller's pairs in both models.
        if self.uniform:
            self._reweigh(
                self._main(seller, lambda c: sale_matches(c[1][seller], c[1][buyer], yes))
            )
        else:
            self._reweigh(
                lambda c: sale_matches(c[1][seller], c[1][buyer], yes) / len(pairs(c[1][seller]))
            )
        if yes:
            self.queue.append(Deferred("hand_back", seller, buyer))
        self._queue_grab(seller)

    def sell_secrets_cards(self, entry: Mapping[str, Any]) -> None:
        """C7: the cards of a yes this seat took part in: the sum's card and a shown card back."""
        seller, buyer, give, take = entry["seat"], entry["to"], entry["give"], entry["receive"]

        def exchange(c: Config) -> Iterable[tuple[Config, float]]:
            hands = c[1]
            if take not in hands[buyer] or give not in hands[seller]:
                return ()
            moves = (
                (seller, moved(hands[seller], give, take)),
                (buyer, moved(hands[buyer], take, give)),
            )
            return (((c[0], with_hands(hands, *moves)), 1.0),)

        self._step(exchange)
        if seller != self.seat:
            self._queue_grab(seller)

    def grab(self, entry: Mapping[str, Any]) -> None:
        """C8: a grab by another seat: its pair (unless face down) and whether it matched."""
        mover, pair, matched = entry["seat"], entry["pair"], entry["matched"]
        if mover == self.seat:
            return  # drop_checked tells this seat The Drop
        uniform = self.uniform
        if pair is None:
            if not matched:
                self.hidden_grab = mover  # the eliminated entry shows the pair

            def hidden(c: Config) -> float:
                hand = c[1][mover]
                fits = grab_matches(hand, c[0], matched)
                return fits / grab_options(hand) if uniform else float(fits > 0)

            self._reweigh(hidden)
            return
        placed, total = (pair[0], pair[1]), pair[0] + pair[1]

        def shown(c: Config) -> float:
            hand = c[1][mover]
            if placed not in pairs(hand) or (c[0] == total) != matched:
                return 0.0
            return 1.0 / grab_options(hand) if uniform else 1.0

        self._reweigh(shown)

    def drop_checked(self, entry: Mapping[str, Any]) -> None:
        """C8: this seat's own grab showed it The Drop."""
        drop = entry["drop"]
        self._reweigh(lambda c: float(c[0] == drop))

    def eliminated_entry(self, entry: Mapping[str, Any]) -> None:
        """C8: a failed grab puts the hand face up (and a face-down pair with it)."""
        seat, hand = entry["seat"], tuple(entry["hand"])
        if seat != self.seat:
            if self.hidden_grab == seat:
                placed = (entry["pair"][0], entry["pair"][1])
                total, uniform = placed[0] + placed[1], self.uniform

                def which(c: Config) -> float:
                    own = c[1][seat]
                    if placed not in pairs(own) or c[0] == total:
                        return 0.0
                    # Which of the failing pairs it was: uniform, or seen (CONSISTENT).
                    return 1.0 / grab_matches(own, c[0], False) if uniform else 1.0

                self._reweigh(which)
            self._reweigh(lambda c: float(c[1][seat] == hand))
        self.hidden_grab = None
        self.eliminated = (*self.eliminated, seat)

    def round_end(self, entry: Mapping[str, Any]) -> None:
        """C10: every card is revealed."""
        hands = tuple(tuple(hand) for hand in entry["hands"])
        self.weights = {(entry["drop"], hands): 1.0}
        self.stash = tuple(entry["stash"])
        self.queue = []


_HANDLERS: dict[str, Callable[[Tracker, Mapping[str, Any]], None]] = {
    "deal": Tracker.deal,
    "hand": Tracker.hand,
    "share_info": Tracker.share_info,
    "share_info_cards": Tracker.share_info_cards,
    "swap_stash": Tracker.swap_stash,
    "sell_secrets_shown": Tracker.sell_secrets_shown,
    "sell_secrets": Tracker.sell_secrets,
    "sell_secrets_cards": Tracker.sell_secrets_cards,
    "grab": Tracker.grab,
    "drop_checked": Tracker.drop_checked,
    "eliminated": Tracker.eliminated_entry,
    "round_end": Tracker.round_end,
}
