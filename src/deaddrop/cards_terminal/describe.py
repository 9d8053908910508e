"""The terminal's seat names and commands; the sentences are Cards' phrasebook's
(`deaddrop.phrasebook.cards`), the same as the web page's."""

from __future__ import annotations

from collections.abc import Mapping

from deaddrop.engine.cards.actions import (
    Action,
    GiveCard,
    Grab,
    HandBack,
    SellSecrets,
    ShareInfo,
    SwapStash,
)
from deaddrop.phrasebook.cards import SeatNames


class Names(SeatNames):
    """How the terminal names seats: "you" for the person, "Seat 2 (expert)" for bots."""

    def __init__(self, me: int, bots: Mapping[int, str]) -> None:
        super().__init__(me)
        self.bots = dict(bots)

    def __call__(self, seat: int | None) -> str:
        """The name of a seat, e.g. "you" or "Seat 1 (heuristic)"."""
        return self.obj(seat)

    def other(self, seat: int) -> str:
        """A seat by its number, with the bot's kind: "Seat 1 (heuristic)"."""
        kind = self.bots.get(seat)
        return f"Seat {seat} ({kind})" if kind else f"Seat {seat}"

    def title(self, seat: int | None) -> str:
        """The name at the start of a sentence, capitalised ("Nobody" too)."""
        name = super().title(seat)
        return name[0].upper() + name[1:]


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
