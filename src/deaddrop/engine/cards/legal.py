"""`legal_actions(state)`: every distinct decision open to the seat in `state.pending`.

Equal card values are interchangeable, so each option appears once (giving "a 0" is one
option however many 0s the hand holds). The options depend only on what the deciding seat may
see (C12): its own hand, The Stash, eliminated hands and who is still in the round.
"""

from __future__ import annotations

from functools import cache

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
        # C8: grabbing is optional.
        return (EndTurn(seat), *(Grab(seat, pair) for pair in pairs(state.hands[seat])))
    if isinstance(pending, ChooseGive):
        # C4: any card of the target's own hand.
        return tuple(GiveCard(seat, card) for card in distinct(state.hands[seat]))
    if isinstance(pending, ChooseHandBack):
        # C7: one of the two shown cards.
        return tuple(HandBack(seat, card) for card in distinct(pending.show))
    return ()  # pragma: no cover - Pending is closed


def _main_actions(state: State, seat: int) -> tuple[Action, ...]:
    hand = state.hands[seat]
    gives = distinct(hand)
    eliminated = state.eliminated
    others = [other for other in range(state.setup.players) if other != seat]
    out: list[Action] = []
    for other in others:
        if other in eliminated:
            # C5: take any face-up card of an eliminated seat.
            takes = distinct(state.hands[other])
            out.extend(ShareInfo(seat, other, give, take) for give in gives for take in takes)
        else:
            # C4: the target will choose what it gives.
            out.extend(ShareInfo(seat, other, give) for give in gives)
    # C6: any card of the hand for any Stash card.
    takes = distinct(state.stash)
    out.extend(SwapStash(seat, give, take) for give in gives for take in takes)
    # C7: two cards of the hand to a seat still in the round.
    shows = pairs(hand)
    for other in others:
        if other not in eliminated:
            out.extend(SellSecrets(seat, other, show) for show in shows)
    return tuple(out)
