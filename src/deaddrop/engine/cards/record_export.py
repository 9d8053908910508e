"""Export any played game (setup + action log) as a game record (scenarios/cards/README.md)."""

from __future__ import annotations

from collections.abc import Iterable
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
from deaddrop.engine.cards.rounds import start
from deaddrop.engine.cards.rules import apply
from deaddrop.engine.cards.state import MayGrab, Setup, State


def export_record(setup: Setup, log: Iterable[Action], name: str = "") -> dict[str, Any]:
    """The record JSON of a game: every round begun, with its deal, start and complete turns.

    A turn is written once its action is complete; a turn cut off before the other seat's
    choice (the card given in Share Info, the card handed back after a yes) is left out, since
    a record cannot hold half an action. A turn cut off before its grab is written without one.
    """
    state = start(setup)
    rounds = [_round_entry(state)]
    turn: dict[str, Any] | None = None
    for action in log:
        before = state.round
        state, _ = apply(state, action)
        turn = _extend(turn, action)
        if isinstance(action, Grab | EndTurn):
            rounds[-1]["turns"].append(turn)
            turn = None
            if state.round != before:
                rounds.append(_round_entry(state))
    if turn is not None and isinstance(state.pending, MayGrab):
        rounds[-1]["turns"].append(turn)
    options = {
        "grab_face_down": setup.options.grab_face_down,
        "tokens_to_win": setup.options.tokens_to_win,
    }
    return {"name": name, "players": setup.players, "options": options, "rounds": rounds}


def _round_entry(state: State) -> dict[str, Any]:
    deal = {
        "drop": state.drop,
        "stash": list(state.stash),
        "hands": [list(hand) for hand in state.hands],
    }
    return {"deal": deal, "start": state.first, "turns": []}


def _extend(turn: dict[str, Any] | None, action: Action) -> dict[str, Any]:
    """The recorded turn with one more decision written into it."""
    if isinstance(action, SwapStash):
        return {"seat": action.seat, "swap_stash": {"give": action.give, "take": action.take}}
    if isinstance(action, ShareInfo):
        share = {"with": action.target, "give": action.give, "receive": action.take}
        return {"seat": action.seat, "share_info": share}
    if isinstance(action, SellSecrets):
        sale = {"to": action.target, "show": list(action.show)}
        return {"seat": action.seat, "sell_secrets": sale}
    assert turn is not None  # the engine accepted it, so a turn is under way
    if isinstance(action, GiveCard):
        turn["share_info"]["receive"] = action.card
    elif isinstance(action, HandBack):
        turn["sell_secrets"]["hand_back"] = action.card
    elif isinstance(action, Grab):
        turn["grab"] = list(action.pair)
    return turn
