"""What a person types, as an action: a menu number or a short command.

Commands (seat numbers and card values; the words in brackets may be left out):

    swap G T                  Swap the Stash: put G in, take T
    share S [give] G          Share Info with seat S, giving G
    share S [give] G [take] T ...with eliminated seat S, taking its face-up T
    sell S [show] A B         Sell Secrets to seat S, showing A and B
    give C                    as the target of Share Info: give C
    back C                    after a yes: hand back C
    grab A B                  Grab The Drop with A and B
    end                       end the turn without grabbing

Parsing only reads the words; the engine judges legality and explains a refusal.
"""

from __future__ import annotations

from collections.abc import Sequence

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

FILLER = frozenset({"give", "take", "show", "to", "with", "and", "for"})
"""Words that may be written for readability and are skipped."""
COMMAND_WORDS: dict[type[Action], str] = {
    SwapStash: "swap",
    ShareInfo: "share",
    SellSecrets: "sell",
    GiveCard: "give",
    HandBack: "back",
    Grab: "grab",
    EndTurn: "end",
}
"""The command word of each kind of action."""
VERBS = tuple(COMMAND_WORDS.values())
"""The command words."""


class ParseError(ValueError):
    """The text is neither a menu number nor a command; the message says how to write it."""


def _numbers(words: Sequence[str], verb: str, counts: Sequence[int], usage: str) -> list[int]:
    values = [w for w in words if w not in FILLER]
    if len(values) not in counts:
        raise ParseError(f"{verb}: expected {usage}")
    try:
        return [int(v) for v in values]
    except ValueError:
        raise ParseError(f"{verb}: expected numbers, as in {usage}") from None


def parse_action(text: str, seat: int, options: Sequence[Action]) -> Action:
    """The action the person means: option N of the menu (from 1), or a command."""
    words = text.lower().replace(",", " ").replace("+", " ").split()
    if not words:
        raise ParseError("type a menu number or a command (help lists them)")
    head, rest = words[0], words[1:]
    if head.isdigit() and not rest:
        number = int(head)
        if not 1 <= number <= len(options):
            raise ParseError(f"choose a number from 1 to {len(options)}")
        return options[number - 1]
    if head == "swap":
        give, take = _numbers(rest, head, (2,), "swap GIVE TAKE, e.g. swap 0 3")
        return SwapStash(seat, give, take)
    if head == "share":
        values = _numbers(rest, head, (2, 3), "share SEAT GIVE [TAKE], e.g. share 2 give 1")
        return ShareInfo(seat, values[0], values[1], values[2] if len(values) == 3 else None)
    if head == "sell":
        target, a, b = _numbers(rest, head, (3,), "sell SEAT A B, e.g. sell 1 show 0 2")
        return SellSecrets(seat, target, (a, b))
    if head == "give":
        (card,) = _numbers(rest, head, (1,), "give CARD, e.g. give 2")
        return GiveCard(seat, card)
    if head in ("back", "hand"):
        (card,) = _numbers([w for w in rest if w != "back"], "back", (1,), "back CARD")
        return HandBack(seat, card)
    if head == "grab":
        a, b = _numbers(rest, head, (2,), "grab A B, e.g. grab 1 3")
        return Grab(seat, (a, b))
    if head in ("end", "pass") and not rest:
        return EndTurn(seat)
    raise ParseError(f"unknown command {text.strip()!r}: type a menu number, or help")
