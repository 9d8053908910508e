"""A determinized round for search bots: one guess at the hidden cards, played out fast.

Search bots (ismcts, master) guess the hidden cards of a round (a `Config` drawn from their
view, C13), then play the rest of the round many times. The engine's `apply` builds a frozen
state and its events at every step, which costs about 100 µs; a `World` is a small mutable
copy of one round (C4–C9) without a log, so a playout costs a few µs a step. The option lists
come from the engine (`legal_actions_for_view`), and a test plays random rounds through both
and checks they end alike, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
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
from deaddrop.engine.cards.inference_model import moved
from deaddrop.engine.cards.inference_prior import Config, Hand
from deaddrop.engine.cards.legal import legal_actions_for_view

ACTION, GIVE, HAND_BACK, GRAB = "action", "give", "hand_back", "grab"
"""The kinds of decision, as a view's `pending["kind"]` names them."""


class World:
    """One determinized round: every hand known, The Drop known, a decision pending."""

    __slots__ = (
        "buyer",
        "drop",
        "eliminated",
        "hands",
        "kind",
        "mover",
        "offered",
        "players",
        "seat",
        "show",
        "stash",
        "winner",
    )  # fmt: skip

    def __init__(
        self,
        players: int,
        drop: int,
        hands: list[Hand],
        stash: Hand,
        eliminated: list[int],
        seat: int,
        kind: str,
    ) -> None:
        self.players = players
        self.drop = drop
        self.hands = hands
        self.stash = stash
        self.eliminated = eliminated
        self.seat = seat
        """The seat whose decision is pending."""
        self.kind = kind
        """ACTION, GIVE, HAND_BACK or GRAB."""
        self.mover = seat
        self.offered = -1
        self.show: tuple[int, int] = (0, 0)
        self.buyer = -1
        self.winner: int | None = None
        """The round's winner once it is over (C8, C9)."""

    def copy(self) -> World:
        """An independent copy to play out."""
        out = World(
            self.players, self.drop, list(self.hands), self.stash, list(self.eliminated),
            self.seat, self.kind,
        )  # fmt: skip
        out.mover, out.offered, out.show = self.mover, self.offered, self.show
        out.buyer, out.winner = self.buyer, self.winner
        return out

    def living(self) -> list[int]:
        """Seats still in the round."""
        return [s for s in range(self.players) if s not in self.eliminated]

    def options(self) -> tuple[Action, ...]:
        """The pending seat's options, exactly as the engine lists them for its view."""
        seat = self.seat
        pending: dict[str, Any] = {"seat": seat, "kind": self.kind}
        if self.kind == HAND_BACK:
            pending["show"] = self.show
        mini = {
            "viewer": seat,
            "players": self.players,
            "pending": pending,
            "hand": self.hands[seat],
            "stash": self.stash,
            "eliminated": [{"seat": s, "hand": self.hands[s]} for s in self.eliminated],
        }
        return legal_actions_for_view(mini)

    def play(self, action: Action) -> None:
        """Apply one decision of the pending seat (assumed legal, as `options` lists it)."""
        hands = self.hands
        if isinstance(action, ShareInfo):
            if action.take is not None:  # C5: a face-up card of an eliminated seat
                hands[action.seat] = moved(hands[action.seat], action.give, action.take)
                hands[action.target] = moved(hands[action.target], action.take, action.give)
                self.kind = GRAB
            else:  # C4: the target chooses what it gives
                self.offered, self.seat, self.kind = action.give, action.target, GIVE
        elif isinstance(action, GiveCard):
            mover = self.mover
            hands[mover] = moved(hands[mover], self.offered, action.card)
            hands[action.seat] = moved(hands[action.seat], action.card, self.offered)
            self.seat, self.kind = mover, GRAB
        elif isinstance(action, SwapStash):  # C6
            hands[action.seat] = moved(hands[action.seat], action.give, action.take)
            self.stash = moved(self.stash, action.take, action.give)
            self.kind = GRAB
        elif isinstance(action, SellSecrets):  # C7: yes only if the buyer holds the sum
            total = action.show[0] + action.show[1]
            if total <= 5 and total in hands[action.target]:
                self.show, self.buyer, self.kind = action.show, action.target, HAND_BACK
            else:
                self.kind = GRAB
        elif isinstance(action, HandBack):
            total = self.show[0] + self.show[1]
            hands[action.seat] = moved(hands[action.seat], action.card, total)
            hands[self.buyer] = moved(hands[self.buyer], total, action.card)
            self.kind = GRAB
        elif isinstance(action, Grab):
            self._grab(action)
        else:
            assert isinstance(action, EndTurn)
            self._pass()

    def _grab(self, action: Grab) -> None:
        """C8: a match wins the round; a miss eliminates, and the last one left wins (C9)."""
        if action.pair[0] + action.pair[1] == self.drop:
            self.winner = action.seat
            return
        self.eliminated.append(action.seat)
        living = self.living()
        if len(living) == 1:
            self.winner = living[0]
            return
        self._pass()

    def _pass(self) -> None:
        """C3: the turn passes to the next seat still in the round."""
        nxt = (self.mover + 1) % self.players
        while nxt in self.eliminated:
            nxt = (nxt + 1) % self.players
        self.mover = self.seat = nxt
        self.kind = ACTION


def world_from_view(view: Mapping[str, Any], config: Config, offered: int = -1) -> World:
    """The round of the view with the hidden cards of `config` filled in (C12: only guesses).

    When the viewer must give a card (C4), `offered` is the guessed card the mover offered.
    """
    drop, hands = config
    pending = view["pending"]
    kind = pending["kind"]
    world = World(
        view["players"],
        drop,
        list(hands),
        tuple(view["stash"]),
        [entry["seat"] for entry in view["eliminated"]],
        pending["seat"],
        kind,
    )
    world.mover = view["turn"]
    if kind == GIVE:
        world.offered = offered
    elif kind == HAND_BACK:
        world.show = (pending["show"][0], pending["show"][1])
        world.buyer = pending["buyer"]
    return world
