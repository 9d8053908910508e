"""What the Cards area needs at run time: the bot pace, and the name its runner is woken by."""

from __future__ import annotations

import os
from dataclasses import dataclass

BOT_DELAY_ENV = "DEADDROP_CARDS_BOT_DELAY"
DEFAULT_BOT_DELAY = 1.2
"""Seconds a bot 'thinks' in the browser: long enough to see what happened, short to wait."""
CARDS_RUNNER = "cards_runner"
"""The job that plays bots and timed-out turns (`runner.py`); a write that set a table's
`due_at` tells it so after commit (`GameWrite.due`)."""
PUBLIC_TURN_SECONDS = 60
"""The turn timer of public tables (issue 6); friends' tables have none by default."""


def bot_delay_from_env() -> float:
    """The bot pace from the environment (0 plays bots at once, as in tests)."""
    raw = os.environ.get(BOT_DELAY_ENV, "")
    try:
        return max(0.0, float(raw)) if raw else DEFAULT_BOT_DELAY
    except ValueError:
        return DEFAULT_BOT_DELAY


@dataclass
class Runtime:
    """Shared by the handlers and the bot runner of one app."""

    bot_delay: float = DEFAULT_BOT_DELAY
    """Seconds before a bot moves; 0 plays bots inside the request that made it their turn."""

    @property
    def instant(self) -> bool:
        """Whether bots move at once (tests) rather than after a human-feeling delay."""
        return self.bot_delay <= 0
