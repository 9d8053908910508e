"""`view(state, seat)`: what one seat (or a spectator, seat None) may see, per C12.

Deny by default: the view starts empty and every field is added by a line that says who may
see it. A seat sees its own hand, The Stash, every eliminated hand, hand sizes, tokens, whose
decision it is, the public log and the private entries it was party to; a spectator sees the
public part only. Finished rounds are public with every card (C10).
"""

from __future__ import annotations

from typing import Any

from deaddrop.engine.cards.state import (
    ChooseAction,
    ChooseGive,
    ChooseHandBack,
    MayGrab,
    RoundResult,
    State,
)
from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.events import Event


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of one seat (C12), or of a spectator when seat is None."""
    if seat is not None and (type(seat) is not int or seat not in range(state.setup.players)):
        raise IllegalAction("C12", f"no seat {seat!r} at this table")
    out: dict[str, Any] = {}
    # Everyone: who is looking, the table and the score.
    out["viewer"] = seat
    out["players"] = state.setup.players
    out["options"] = {
        "grab_face_down": state.setup.options.grab_face_down,
        "tokens_to_win": state.setup.options.tokens_to_win,
    }
    out["round"] = state.round
    out["first"] = state.first
    out["turn"] = state.turn
    out["pending"] = pending_view(state, seat)
    out["winner"] = state.winner
    out["tokens"] = list(state.tokens)
    # C12: a seat sees its own hand; nobody else's hidden hand.
    if seat is not None:
        out["hand"] = list(state.hands[seat])
    # C12: The Stash is face up; hand sizes are on the table.
    out["stash"] = list(state.stash)
    out["hand_sizes"] = [len(hand) for hand in state.hands]
    # C8, C12: an eliminated hand lies face up for everyone.
    out["eliminated"] = [{"seat": s, "hand": list(state.hands[s])} for s in state.eliminated]
    # C10: a finished round is revealed to everyone.
    out["rounds"] = [round_reveal(result) for result in state.results]
    # C12: the public log, and the private entries this seat was party to.
    out["log"] = [log_entry(event) for event in state.log if event.audience.includes(seat)]
    return out


def pending_view(state: State, seat: int | None) -> dict[str, Any] | None:
    """Whose decision it is and of what kind; the hidden details only to those who know them."""
    pending = state.pending
    if pending is None:
        return None
    out: dict[str, Any] = {"seat": pending.seat}
    if isinstance(pending, ChooseAction):
        out["kind"] = "action"
    elif isinstance(pending, MayGrab):
        out["kind"] = "grab"
    elif isinstance(pending, ChooseGive):
        out["kind"] = "give"
        out["mover"] = pending.mover
        # C4: the target chooses without seeing the offered card; the mover knows it.
        if seat == pending.mover:
            out["offered"] = pending.offered
    elif isinstance(pending, ChooseHandBack):
        out["kind"] = "hand_back"
        out["buyer"] = pending.buyer
        # C7: only the two parties see the shown values.
        if seat in (pending.seat, pending.buyer):
            out["show"] = list(pending.show)
    return out


def round_reveal(result: RoundResult) -> dict[str, Any]:
    """A finished round with every card face up (C10): public."""
    return {
        "round": result.round,
        "first": result.first,
        "winner": result.winner,
        "by": result.by,
        "eliminated": list(result.eliminated),
        "answers": list(result.answers),
        "drop": result.drop,
        "stash": list(result.stash),
        "hands": [list(hand) for hand in result.hands],
    }


def log_entry(event: Event) -> dict[str, Any]:
    """One event as a JSON-ready log line: its kind, whether it is public, its payload."""
    entry: dict[str, Any] = {"kind": event.kind, "public": event.audience.public}
    for key, value in event.payload.items():
        entry[key] = _jsonable(value)
    return entry


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(item) for item in value]
    return value
