"""`legal_actions(state)`: every distinct decision open to the seat in `state.pending`.

Equal card values are interchangeable, so each option appears once (giving "a 0" is one
option however many 0s the hand holds). The options depend only on what the deciding seat may
see (C12): its own hand, The Stash, eliminated hands and who is still in the round.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
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
from deaddrop.engine.cards.state import ChooseAction, ChooseGive, ChooseHandBack, MayGrab, State


@cache
def distinct(cards: tuple[int, ...]) -> tuple[int, ...]:
    """The distinct values of a sorted hand or stash, ascending."""
    return tuple(dict.fromkeys(cards))


@cache
def pairs(hand: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Every distinct pair of cards a sorted hand can show or grab, each ascending."""
    out: list[tuple[int, int]] = []
    values = distinct(hand)
    for i, a in enumerate(values):
        if hand.count(a) >= 2:
            out.append((a, a))
        out.extend((a, b) for b in values[i + 1 :])
    return tuple(out)


def legal_actions(state: State) -> tuple[Action, ...]:
    """The options of the seat that must decide now; empty once the game is over."""
    pending = state.pending
    if pending is None:
        return ()
    seat = pending.seat
    if type(pending) is ChooseAction:
        return _main_actions(state, seat)
    if type(pending) is MayGrab:
        return _grab_options(seat, state.hands[seat])
    if isinstance(pending, ChooseGive):
        return _gives(seat, state.hands[seat])
    if isinstance(pending, ChooseHandBack):
        return _hand_backs(seat, pending.show)
    return ()  # pragma: no cover - Pending is closed


def _main_actions(state: State, seat: int) -> tuple[Action, ...]:
    hand = state.hands[seat]
    eliminated = state.eliminated
    out = _with_living(seat, state.setup.players, hand, eliminated) + _swaps(
        seat, hand, state.stash
    )
    for other in eliminated:
        out += _share_face_up(seat, other, hand, state.hands[other])
    return out


# The option lists below are immutable and depend on a few small keys, so they are cached:
# random play (the simulator) asks for the same lists over and over. A hand is one of at most
# 101 multisets of the deck, so the caches stay small; the bound is a guard all the same.
_CACHE = 8192


@lru_cache(maxsize=_CACHE)
def _with_living(
    seat: int, players: int, hand: tuple[int, ...], eliminated: tuple[int, ...]
) -> tuple[Action, ...]:
    """Share Info and Sell Secrets with every other seat still in the round."""
    out: list[Action] = []
    others = [other for other in range(players) if other != seat and other not in eliminated]
    for other in others:
        out.extend(_share(seat, other, hand))
    for other in others:
        out.extend(_sales(seat, other, hand))
    return tuple(out)


@lru_cache(maxsize=_CACHE)
def _share(seat: int, target: int, hand: tuple[int, ...]) -> tuple[ShareInfo, ...]:
    # C4: any card of the hand; the target will choose what it gives.
    return tuple(ShareInfo(seat, target, give) for give in distinct(hand))


@lru_cache(maxsize=_CACHE)
def _share_face_up(
    seat: int, target: int, hand: tuple[int, ...], face_up: tuple[int, ...]
) -> tuple[ShareInfo, ...]:
    # C5: any card of the hand for any face-up card of the eliminated seat.
    gives, takes = distinct(hand), distinct(face_up)
    return tuple(ShareInfo(seat, target, give, take) for give in gives for take in takes)


@lru_cache(maxsize=_CACHE)
def _swaps(seat: int, hand: tuple[int, ...], stash: tuple[int, ...]) -> tuple[SwapStash, ...]:
    # C6: any card of the hand for any Stash card.
    gives, takes = distinct(hand), distinct(stash)
    return tuple(SwapStash(seat, give, take) for give in gives for take in takes)


@lru_cache(maxsize=_CACHE)
def _sales(seat: int, target: int, hand: tuple[int, ...]) -> tuple[SellSecrets, ...]:
    # C7: two cards of the hand to a seat still in the round.
    return tuple(SellSecrets(seat, target, show) for show in pairs(hand))


@lru_cache(maxsize=_CACHE)
def _grab_options(seat: int, hand: tuple[int, ...]) -> tuple[EndTurn | Grab, ...]:
    # C8: grabbing is optional.
    return (EndTurn(seat), *(Grab(seat, pair) for pair in pairs(hand)))


@lru_cache(maxsize=_CACHE)
def _gives(seat: int, hand: tuple[int, ...]) -> tuple[GiveCard, ...]:
    # C4: any card of the target's own hand.
    return tuple(GiveCard(seat, card) for card in distinct(hand))


@lru_cache(maxsize=_CACHE)
def _hand_backs(seat: int, show: tuple[int, int]) -> tuple[HandBack, ...]:
    # C7: one of the two shown cards.
    return tuple(HandBack(seat, card) for card in distinct(show))


def legal_actions_for_view(view: Mapping[str, Any]) -> tuple[Action, ...]:
    """The viewer's options when the decision is theirs, worked out from its view alone (C13)."""
    pending, seat = view["pending"], view["viewer"]
    if pending is None or seat is None or pending["seat"] != seat:
        return ()
    hand = tuple(view["hand"])
    kind = pending["kind"]
    if kind == "grab":
        return _grab_options(seat, hand)
    if kind == "give":
        return _gives(seat, hand)
    if kind == "hand_back":
        return _hand_backs(seat, (pending["show"][0], pending["show"][1]))
    eliminated = tuple(entry["seat"] for entry in view["eliminated"])
    out = _with_living(seat, view["players"], hand, eliminated)
    out += _swaps(seat, hand, tuple(view["stash"]))
    for entry in view["eliminated"]:
        out += _share_face_up(seat, entry["seat"], hand, tuple(entry["hand"]))
    return out
