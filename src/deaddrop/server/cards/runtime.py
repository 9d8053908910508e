"""What the Cards area needs at run time: the broker, the bot pace and the runner's doorbell."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from litestar.channels import ChannelsPlugin

from deaddrop.server.live.wakeup import wake

BOT_DELAY_ENV = "DEADDROP_CARDS_BOT_DELAY"
DEFAULT_BOT_DELAY = 1.2
"""Seconds a bot 'thinks' in the browser: long enough to see what happened, short to wait."""
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
    channels: ChannelsPlugin | None = None
    """The broker for wake-ups (None before the app starts: nobody is listening yet)."""
    poke: Callable[[], None] = field(default=lambda: None)
    """Tells the runner a table has a new due time."""

    @property
    def instant(self) -> bool:
        """Whether bots move at once (tests) rather than after a human-feeling delay."""
        return self.bot_delay <= 0

    async def publish(self, stream: str, seq: int) -> None:
        """After commit: wake every listener of the stream (the wake-up carries no content)."""
        if self.channels is not None and seq > 0:
            await wake(self.channels, stream, seq)
