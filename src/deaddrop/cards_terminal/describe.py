"""The terminal's seat names and commands; the sentences are Cards' phrasebook's
(`deaddrop.phrasebook.cards`), the same as the web page's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields

from deaddrop.cards_terminal.parse import COMMAND_WORDS
from deaddrop.engine.cards.actions import Action
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
    """The short command that names an option, e.g. "sell 1 1 3": its word, then its numbers in
    the order the action holds them, which is the order `parse_action` reads them in."""
    words = [COMMAND_WORDS[type(action)]]
    for field in fields(action):
        value = getattr(action, field.name)
        if field.name == "seat" or value is None:  # the seat is the person's; no C5 take
            continue
        words.extend(str(number) for number in (value if isinstance(value, tuple) else (value,)))
    return " ".join(words)
