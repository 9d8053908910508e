"""The random Cards bot: a uniformly random legal option of its view, grabs included (C13)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from deaddrop.engine.cards.actions import Action
from deaddrop.engine.cards.legal import legal_actions_for_view


class RandomBot:
    """Picks uniformly among the distinct legal options; a grab is just one of them."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        # The stdlib generator is seeded per bot, so a simulated game replays from its seed.
        self._rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any]) -> Action:
        """A uniformly random legal action for the viewer, from its view alone."""
        options = legal_actions_for_view(view)
        if not options:
            raise ValueError("the view holds no decision for this seat")
        return options[self._rng.randrange(len(options))]
