"""`apply(state, action)`: one decision of one seat, checked against the rules C3–C11.

A turn is a short series of decisions, each recorded in `state.pending`:

    ChooseAction(mover)
      ├─ SwapStash ───────────────────────────────────────────────┐
      ├─ ShareInfo with an eliminated seat (C5) ──────────────────┤
      ├─ ShareInfo with a seat in the round → ChooseGive(target) ─┤ GiveCard
      └─ SellSecrets → no ────────────────────────────────────────┤
                     → yes → ChooseHandBack(mover) ───────────────┤ HandBack
                                                                  ▼
    MayGrab(mover): Grab (C8: win the round, or be eliminated) or EndTurn → next seat (C3)
"""

from __future__ import annotations

from bisect import insort

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
from deaddrop.engine.cards.rounds import finish_round
from deaddrop.engine.cards.state import (
    ChooseAction,
    ChooseGive,
    ChooseHandBack,
    MayGrab,
    Pending,
    State,
)
from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.core.records import evolve

_PUBLIC = Audience.everyone()
_MAIN_ACTIONS = (ShareInfo, SwapStash, SellSecrets)


def apply(state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
    """The state after one seat's decision and the events it caused; IllegalAction if illegal."""
    pending = state.pending
    if pending is None:
        raise IllegalAction("C11", "the game is over")
    seat = getattr(action, "seat", None)
    if type(seat) is not int or seat != pending.seat:
        raise _not_your_decision(pending)
    if type(pending) is ChooseAction:
        if isinstance(action, SwapStash):
            return _swap_stash(state, action)
        if isinstance(action, ShareInfo):
            return _share_info(state, action)
        if isinstance(action, SellSecrets):
            return _sell_secrets(state, action)
        raise IllegalAction(
            "C3", f"seat {seat} must first take one action: share info, swap or sell"
        )
    if type(pending) is MayGrab:
        if isinstance(action, Grab):
            return _grab(state, action)
        if isinstance(action, EndTurn):
            return _pass_turn(state, state.hands, state.eliminated, pending.seat, ())
        if isinstance(action, _MAIN_ACTIONS):
            raise IllegalAction("C3", "one action per turn: grab the drop or end the turn")
        raise IllegalAction("C8", "grab the drop or end the turn")
    if isinstance(pending, ChooseGive):
        if isinstance(action, GiveCard):
            return _give_card(state, pending, action)
        raise IllegalAction("C4", f"seat {seat} must choose a card to give to seat {pending.mover}")
    if isinstance(pending, ChooseHandBack) and isinstance(action, HandBack):
        return _hand_back(state, pending, action)
    raise IllegalAction("C7", f"seat {seat} must hand back one of the shown cards")


def _not_your_decision(pending: Pending) -> IllegalAction:
    if type(pending) is ChooseGive:
        return IllegalAction("C4", f"seat {pending.seat} chooses the card to give")
    if type(pending) is ChooseHandBack:
        return IllegalAction("C7", f"seat {pending.seat} chooses the card to hand back")
    return IllegalAction("C3", f"it is seat {pending.seat}'s turn")


def _moved(hand: tuple[int, ...], out: int, into: int) -> tuple[int, ...]:
    """The sorted hand (or stash) with one card `out` replaced by `into`."""
    if out == into:
        return hand
    cards = list(hand)
    cards.remove(out)
    insort(cards, into)
    return tuple(cards)


def _with(
    hands: tuple[tuple[int, ...], ...], *changes: tuple[int, tuple[int, ...]]
) -> tuple[tuple[int, ...], ...]:
    """The hands with some seats' hands replaced."""
    out = list(hands)
    for seat, hand in changes:
        out[seat] = hand
    return tuple(out)


def _holds_pair(hand: tuple[int, ...], pair: object) -> tuple[int, int] | None:
    """The pair in ascending order if it is two cards of the hand, else None."""
    if type(pair) is not tuple or len(pair) != 2:
        return None
    a, b = pair
    if type(a) is not int or type(b) is not int:
        return None
    if a == b:
        return (a, b) if hand.count(a) >= 2 else None
    if a in hand and b in hand:
        return (a, b) if a < b else (b, a)
    return None


def _not_a_pair(verb: str, pair: object) -> str:
    """Why a shown or grabbed pair is refused."""
    if type(pair) is tuple and len(pair) == 2:
        return f"cannot {verb} {pair[0]} and {pair[1]}: not in hand"
    return f"{verb} two cards of the hand"


def _advance(
    state: State,
    hands: tuple[tuple[int, ...], ...],
    pending: ChooseGive | ChooseHandBack | MayGrab,
    events: tuple[Event, ...],
    stash: tuple[int, ...] | None = None,
    answers: tuple[str, ...] | None = None,
) -> tuple[State, tuple[Event, ...]]:
    """The state one step further in the same turn."""
    stepped = evolve(
        state,
        stash=state.stash if stash is None else stash,
        hands=hands,
        answers=state.answers if answers is None else answers,
        pending=pending,
        winner=None,
        log=state.log + events,
    )
    return stepped, events


def _trade(
    state: State, event: Event, mover: int, other: int, gave: int, got: int
) -> tuple[State, tuple[Event, ...]]:
    """The mover gave `other` a card for one of theirs (C4, C5, C7); it may grab next (C8)."""
    hands = _with(
        state.hands,
        (mover, _moved(state.hands[mover], gave, got)),
        (other, _moved(state.hands[other], got, gave)),
    )
    return _advance(state, hands, MayGrab(mover), (event,))


def _swap_stash(state: State, action: SwapStash) -> tuple[State, tuple[Event, ...]]:
    seat, give, take = action.seat, action.give, action.take
    hand = state.hands[seat]
    if type(give) is not int or give not in hand:
        raise IllegalAction("C6", f"give {give} is not in hand")
    if type(take) is not int or take not in state.stash:
        raise IllegalAction("C6", f"take {take} is not in the stash")
    # C6: the given card goes face up into The Stash; everything about a swap is public.
    event = Event("swap_stash", {"seat": seat, "give": give, "take": take}, _PUBLIC)
    hands = _with(state.hands, (seat, _moved(hand, give, take)))
    stash = _moved(state.stash, take, give)
    return _advance(state, hands, MayGrab(seat), (event,), stash=stash)


def _share_info(state: State, action: ShareInfo) -> tuple[State, tuple[Event, ...]]:
    seat, target, give = action.seat, action.target, action.give
    if type(target) is not int or target == seat or target not in range(state.setup.players):
        raise IllegalAction("C4", "share info with another seat")
    hand = state.hands[seat]
    if type(give) is not int or give not in hand:
        raise IllegalAction("C4", f"give {give} is not in hand")
    if target in state.eliminated:
        # C5: pick one of their face-up cards and put yours face up in its place.
        take = action.take
        if take is None:
            raise IllegalAction("C5", f"seat {target} is eliminated: pick one of its face-up cards")
        if type(take) is not int or take not in state.hands[target]:
            raise IllegalAction("C5", f"seat {target}'s face-up hand holds no {take}")
        payload = {"seat": seat, "with": target, "face_up": True, "give": give, "receive": take}
        return _trade(state, Event("share_info", payload, _PUBLIC), seat, target, give, take)
    if action.take is not None:
        raise IllegalAction("C4", f"seat {target} chooses the card it gives")
    # C4: everyone sees that the two trade; the target chooses without seeing the offered card.
    event = Event("share_info", {"seat": seat, "with": target, "face_up": False}, _PUBLIC)
    return _advance(state, state.hands, ChooseGive(target, seat, give), (event,))


def _give_card(
    state: State, pending: ChooseGive, action: GiveCard
) -> tuple[State, tuple[Event, ...]]:
    target, mover, offered, card = pending.seat, pending.mover, pending.offered, action.card
    if type(card) is not int or card not in state.hands[target]:
        raise IllegalAction("C4", f"seat {target} holds no {card}")
    # C4: only the two see the two cards.
    payload = {"seat": mover, "with": target, "give": offered, "receive": card}
    event = Event("share_info_cards", payload, Audience.only(mover, target))
    return _trade(state, event, mover, target, offered, card)


def _sell_secrets(state: State, action: SellSecrets) -> tuple[State, tuple[Event, ...]]:
    seat, target = action.seat, action.target
    if (
        type(target) is not int
        or target == seat
        or target not in range(state.setup.players)
        or target in state.eliminated
    ):
        raise IllegalAction("C7", "sell to another seat still in the round")
    show = _holds_pair(state.hands[seat], action.show)
    if show is None:
        raise IllegalAction("C7", _not_a_pair("show", action.show))
    total = show[0] + show[1]
    # C7: the answer is the truth about the buyer's hand; a sum above 5 is always no.
    yes = total <= 5 and total in state.hands[target]
    answer = "yes" if yes else "no"
    shown = Event(
        "sell_secrets_shown",
        {"seat": seat, "to": target, "show": show, "sum": total},
        Audience.only(seat, target),
    )
    public = Event(
        "sell_secrets",
        {"seat": seat, "to": target, "answer": answer, "cards_moved": yes},
        _PUBLIC,
    )
    pending: ChooseHandBack | MayGrab = ChooseHandBack(seat, target, show) if yes else MayGrab(seat)
    answers = (*state.answers, answer)
    return _advance(state, state.hands, pending, (shown, public), answers=answers)


def _hand_back(
    state: State, pending: ChooseHandBack, action: HandBack
) -> tuple[State, tuple[Event, ...]]:
    seller, buyer, show, card = pending.seat, pending.buyer, pending.show, action.card
    if type(card) is not int or card not in show:
        raise IllegalAction("C7", f"hand back one of the shown cards {show[0]} and {show[1]}")
    total = show[0] + show[1]
    # C7: the buyer hands over a card of the sum's value; the seller returns one shown card.
    payload = {"seat": seller, "to": buyer, "give": card, "receive": total}
    event = Event("sell_secrets_cards", payload, Audience.only(seller, buyer))
    return _trade(state, event, seller, buyer, card, total)


def _grab(state: State, action: Grab) -> tuple[State, tuple[Event, ...]]:
    seat = action.seat
    hand = state.hands[seat]
    pair = _holds_pair(hand, action.pair)
    if pair is None:
        raise IllegalAction("C8", _not_a_pair("grab", action.pair))
    matched = pair[0] + pair[1] == state.drop
    face_down = state.setup.options.grab_face_down
    # C8: the pair goes face up unless grab_face_down; the Drop is checked by the grabber alone.
    events: tuple[Event, ...] = (
        Event(
            "grab",
            {"seat": seat, "pair": None if face_down else pair, "matched": matched},
            _PUBLIC,
        ),
        Event(
            "drop_checked",
            {"seat": seat, "pair": pair, "drop": state.drop, "matched": matched},
            Audience.only(seat),
        ),
    )
    if matched:
        return finish_round(state, state.hands, state.eliminated, seat, "grab", events)
    # C8: a failed grab eliminates; the whole hand (and so the pair) goes face up.
    eliminated = (*state.eliminated, seat)
    fell = Event("eliminated", {"seat": seat, "hand": hand, "pair": pair}, _PUBLIC)
    events = (*events, fell)
    living = [s for s in range(state.setup.players) if s not in eliminated]
    if len(living) == 1:
        # C9: the last agent standing wins the round.
        return finish_round(state, state.hands, eliminated, living[0], "last_standing", events)
    return _pass_turn(state, state.hands, eliminated, seat, events)


def _pass_turn(
    state: State,
    hands: tuple[tuple[int, ...], ...],
    eliminated: tuple[int, ...],
    seat: int,
    events: tuple[Event, ...],
) -> tuple[State, tuple[Event, ...]]:
    """C3: the turn passes to the next seat that is not eliminated."""
    players = state.setup.players
    nxt = (seat + 1) % players
    while nxt in eliminated:
        nxt = (nxt + 1) % players
    passed = evolve(
        state,
        turn=nxt,
        hands=hands,
        eliminated=eliminated,
        pending=ChooseAction(nxt),
        winner=None,
        log=state.log + events,
    )
    return passed, events
