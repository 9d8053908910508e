"""Cards in words: one log entry of a seat's view (C12) as a sentence, and a legal option as a
menu label, the same on the web page and in the terminal.

The wording is the table page's (articles, cards listed with commas, private lines marked
"Private"), with the terminal's sentence for a void round, which the page lacked. Each front
brings its own seat names (`SeatNames`): the page says "Alice", the terminal "Seat 1 (expert)".
"""

from __future__ import annotations

from abc import ABC, abstractmethod
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

Entry = Mapping[str, Any]


class SeatNames(ABC):
    """How a front names seats to one viewer: their own seat is "You", "you", "Your", with the
    verbs that agree; "nobody" stands for no seat, and each front names the others (`other`)."""

    def __init__(self, viewer: int | None) -> None:
        self.viewer = viewer

    @abstractmethod
    def other(self, seat: int) -> str:
        """The name of a seat that is not the viewer's."""

    def is_viewer(self, seat: int | None) -> bool:
        """Whether `seat` is the viewer's own (never, for a spectator)."""
        return seat is not None and seat == self.viewer

    def title(self, seat: int | None) -> str:
        """The name at the start of a sentence ("You")."""
        return "You" if self.is_viewer(seat) else self._named(seat)

    def obj(self, seat: int | None) -> str:
        """The name inside a sentence ("you")."""
        return "you" if self.is_viewer(seat) else self._named(seat)

    def whose(self, seat: int | None) -> str:
        """The possessive at the start of a sentence ("Your", "Alice's")."""
        return "Your" if self.is_viewer(seat) else f"{self.title(seat)}'s"

    def verb(self, seat: int | None, you: str, other: str) -> str:
        """`you` when the seat is the viewer's, else `other` (verbs agree with "You")."""
        return you if self.is_viewer(seat) else other

    def _named(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.other(seat)


def count(n: int, one: str, many: str = "") -> str:
    """A number with the noun that agrees with it, e.g. "1 token", "3 tokens"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def cards(values: Sequence[int]) -> str:
    """Card values as text, e.g. "0, 1, 3"; "none" for none."""
    return ", ".join(str(value) for value in values) or "none"


def _deal(e: Entry, name: SeatNames) -> str:
    first = e["first"]
    starts = name.verb(first, "start", "starts")
    return f"Round {e['round']} dealt; {name.obj(first)} {starts}. The Stash: {cards(e['stash'])}."


def _hand(e: Entry, name: SeatNames) -> str:
    return f"{name.whose(e.get('seat'))} hand for round {e['round']}: {cards(e['hand'])}."


def _swap_stash(e: Entry, name: SeatNames) -> str:
    return f"{name.title(e['seat'])} put a {e['give']} into The Stash and took the {e['take']}."


def _share_info(e: Entry, name: SeatNames) -> str:
    who = name.title(e["seat"])
    if e["face_up"]:
        whose = name.whose(e["with"])
        whose = whose.lower() if whose == "Your" else whose
        return f"{who} traded a {e['give']} for {whose} face-up {e['receive']}."
    return f"{who} shared info with {name.obj(e['with'])}."


def _share_info_cards(e: Entry, name: SeatNames) -> str:
    mover, target = name.title(e["seat"]), name.obj(e["with"])
    return f"Private trade: {mover} gave a {e['give']}, {target} gave a {e['receive']}."


def _sell_secrets_shown(e: Entry, name: SeatNames) -> str:
    (first, second), seller, buyer = e["show"], name.title(e["seat"]), name.obj(e["to"])
    return f"Private: {seller} showed {buyer} a {first} and a {second} (sum {e['sum']})."


def _sell_secrets(e: Entry, name: SeatNames) -> str:
    moved = " Cards change hands." if e["cards_moved"] else ""
    to = name.obj(e["to"])
    return f"{name.title(e['seat'])} sold secrets to {to}: the answer is {e['answer']}.{moved}"


def _sell_secrets_cards(e: Entry, name: SeatNames) -> str:
    seller, buyer = name.title(e["seat"]), name.obj(e["to"])
    return (
        f"Private sale: {seller} handed back a {e['give']} and got a {e['receive']} from {buyer}."
    )


def _grab(e: Entry, name: SeatNames) -> str:
    pair = e["pair"]
    placed = "two face-down cards" if pair is None else f"a {pair[0]} and a {pair[1]}"
    verdict = "it matches!" if e["matched"] else "it does not match."
    return f"{name.title(e['seat'])} grabbed The Drop with {placed}: {verdict}"


def _drop_checked(e: Entry, name: SeatNames) -> str:
    return f"Private: {name.obj(e['seat'])} checked The Drop. It is a {e['drop']}."


def _eliminated(e: Entry, name: SeatNames) -> str:
    seat = e["seat"]
    are, their = name.verb(seat, "are", "is"), name.verb(seat, "your", "their")
    hand = cards(e["hand"])
    return f"{name.title(seat)} {are} out of the round; {their} hand lies face up: {hand}."


def _round_end(e: Entry, name: SeatNames) -> str:
    how = "by grabbing The Drop" if e["by"] == "grab" else "as the last agent standing"
    return f"Round {e['round']} goes to {name.obj(e['winner'])} {how}. The Drop was a {e['drop']}."


def _game_end(e: Entry, name: SeatNames) -> str:
    return f"{name.title(e['winner'])} won the game."


def _round_void(e: Entry, name: SeatNames) -> str:
    return f"Round {e['round']} is void after {count(e['turns'], 'turn')}: nobody scores."


_LINES: dict[str, Callable[[Entry, SeatNames], str]] = {
    "deal": _deal,
    "hand": _hand,
    "swap_stash": _swap_stash,
    "share_info": _share_info,
    "share_info_cards": _share_info_cards,
    "sell_secrets_shown": _sell_secrets_shown,
    "sell_secrets": _sell_secrets,
    "sell_secrets_cards": _sell_secrets_cards,
    "grab": _grab,
    "drop_checked": _drop_checked,
    "eliminated": _eliminated,
    "round_end": _round_end,
    "game_end": _game_end,
    "round_void": _round_void,
}


def log_line(entry: Entry, name: SeatNames) -> str:
    """One log entry in plain words, from the viewer's side (verbs agree with "You")."""
    kind = entry["kind"]
    line = _LINES.get(kind)
    return line(entry, name) if line is not None else str(kind).replace("_", " ")


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
