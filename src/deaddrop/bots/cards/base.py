"""What every Cards bot is: something that picks a legal action from one seat's view (C13)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from deaddrop.engine.cards.actions import Action


class CardsBot(Protocol):
    """A player of Cards. It is given views only, never the state (C13)."""

    name: str
    """The bot's kind: random, heuristic or expert."""

    def choose(self, view: Mapping[str, Any]) -> Action:
        """One legal action for the viewer, whose decision it is (`view["pending"]["seat"]`)."""
        ...
