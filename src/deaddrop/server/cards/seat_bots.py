"""Which bot plays a seat: a bot seat's own level, or the stand-in for a person who is away."""

from __future__ import annotations

from deaddrop.server.cards.models import CardsSeat

STAND_IN = "expert"
"""The bot that plays for a person whose turn timer ran out: the expert, strong and quick (a
fraction of a millisecond a decision), so a turn timer never waits on a search."""


def bot_for(row: CardsSeat) -> str:
    """The bot that plays this seat: its own for a bot seat, the stand-in for a person's."""
    return row.bot or STAND_IN
