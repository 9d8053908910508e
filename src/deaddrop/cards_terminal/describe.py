"""Words for what a seat sees: seat names, log lines and option labels."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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


class Names:
    """How the person's front names seats: "you" for the person, "Seat 2 (expert)" for bots."""

    def __init__(self, me: int, bots: Mapping[int, str]) -> None:
        self.me = me
        self.bots = dict(bots)

    def __call__(self, seat: int) -> str:
        """The name of a seat, e.g. "you" or "Seat 1 (heuristic)"."""
        if seat == self.me:
            return "you"
        kind = self.bots.get(seat)
        return f"Seat {seat} ({kind})" if kind else f"Seat {seat}"

    def title(self, seat: int) -> str:
        """The name at the start of a sentence."""
        name = self(seat)
        return name[0].upper() + name[1:]


def count(n: int, one: str, many: str = "") -> str:
    """A number with the noun that agrees with it, e.g. "1 token", "3 tokens"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def cards(values: Sequence[int]) -> str:
    """Card values as text, e.g. "0 1 3"; "nothing" for none."""
    return " ".join(str(v) for v in values) if values else "nothing"


def log_line(entry: Mapping[str, Any], names: Names) -> str | None:
    """One log entry as a sentence from the seat's point of view; None for nothing to say."""
    kind = entry["kind"]
    me = names.me
    who = names.title(entry["seat"]) if "seat" in entry else ""
    if kind == "deal":
        return (
            f"Round {entry['round']} is dealt: The Stash is {cards(entry['stash'])}; "
            f"{names(entry['first'])} start{'' if entry['first'] == me else 's'}."
        )
    if kind == "hand":
        return f"Your hand: {cards(entry['hand'])}."
    if kind == "swap_stash":
        return f"{who} put {entry['give']} into The Stash and took {entry['take']}."
    if kind == "share_info":
        if entry["face_up"]:
            return (
                f"{who} traded {entry['give']} for the face-up {entry['receive']} "
                f"of {names(entry['with'])}."
            )
        return f"{who} shared info with {names(entry['with'])}."
    if kind == "share_info_cards":
        if entry["seat"] == me:
            return f"  You gave {entry['give']} and got {entry['receive']}."
        return f"  {who} gave you {entry['give']}; you gave {entry['receive']}."
    if kind == "sell_secrets_shown":
        if entry["seat"] == me:
            shown = f"{entry['show'][0]} and {entry['show'][1]}"
            return f"You showed {names(entry['to'])} {shown} (sum {entry['sum']})."
        shown = f"{entry['show'][0]} and {entry['show'][1]}"
        return f"{who} showed you {shown} (sum {entry['sum']})."
    if kind == "sell_secrets":
        moved = ", cards change hands" if entry["cards_moved"] else ""
        return f"{who} sold secrets to {names(entry['to'])}: {entry['answer']}{moved}."
    if kind == "sell_secrets_cards":
        if entry["seat"] == me:
            return f"  You handed back {entry['give']} and got {entry['receive']}."
        return f"  {who} handed you back {entry['give']} for your {entry['receive']}."
    if kind == "grab":
        pair = entry["pair"]
        placed = f"{pair[0]} and {pair[1]}" if pair is not None else "a face-down pair"
        result = "it matches!" if entry["matched"] else "no match."
        return f"{who} grabbed The Drop with {placed}: {result}"
    if kind == "drop_checked":
        return f"  You checked The Drop: it is {entry['drop']}."
    if kind == "eliminated":
        verb = "are" if entry["seat"] == me else "is"
        return f"{who} {verb} out; hand face up: {cards(entry['hand'])}."
    if kind == "round_end":
        how = "grabbing The Drop" if entry["by"] == "grab" else "being the last agent standing"
        verb = "win" if entry["winner"] == me else "wins"
        return (
            f"Round {entry['round']}: {names(entry['winner'])} {verb} by {how}. "
            f"The Drop was {entry['drop']}."
        )
    if kind == "game_end":
        verb = "win" if entry["winner"] == me else "wins"
        return f"{names.title(entry['winner'])} {verb} the game!"
    if kind == "round_void":
        turns = count(entry["turns"], "turn")
        return f"Round {entry['round']} is void after {turns}: nobody scores."
    return None


def option_label(action: Action, names: Callable[[int], str]) -> str:
    """A legal option as a short menu label, e.g. "sell to Seat 1: show 1+3"."""
    if isinstance(action, ShareInfo):
        if action.take is not None:
            return f"share with {names(action.target)}: give {action.give}, take {action.take}"
        return f"share with {names(action.target)}: give {action.give}"
    if isinstance(action, SwapStash):
        return f"swap: give {action.give}, take {action.take}"
    if isinstance(action, SellSecrets):
        return f"sell to {names(action.target)}: show {action.show[0]}+{action.show[1]}"
    if isinstance(action, GiveCard):
        return f"give {action.card}"
    if isinstance(action, HandBack):
        return f"hand back {action.card}"
    if isinstance(action, Grab):
        return f"grab with {action.pair[0]}+{action.pair[1]}"
    assert isinstance(action, EndTurn)
    return "end turn"


def command_for(action: Action) -> str:
    """The short command that names an option, e.g. "sell 1 1 3"."""
    if isinstance(action, ShareInfo):
        take = f" {action.take}" if action.take is not None else ""
        return f"share {action.target} {action.give}{take}"
    if isinstance(action, SwapStash):
        return f"swap {action.give} {action.take}"
    if isinstance(action, SellSecrets):
        return f"sell {action.target} {action.show[0]} {action.show[1]}"
    if isinstance(action, GiveCard):
        return f"give {action.card}"
    if isinstance(action, HandBack):
        return f"back {action.card}"
    if isinstance(action, Grab):
        return f"grab {action.pair[0]} {action.pair[1]}"
    return "end"
