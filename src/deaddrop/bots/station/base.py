"""What a Station bot decides for one seat's day, and the shape every level has (S42)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.claims import Post

PostChannel = Literal["floor", "ring"]
"""Where a bot posts: the Floor (S28) or, for the Ring, the Ring Channel (S29)."""

BotAction = A.DayAction | A.EditFinalCable
"""A save a bot makes: its Operation or the Ring order, vote, whispers, done mark, Final Cable."""


@dataclass(frozen=True, slots=True)
class BotPost:
    """A chat message a bot posts today (claims, S43); its audience is the channel's."""

    channel: PostChannel
    text: str


@dataclass(frozen=True, slots=True)
class DayPlan:
    """A seat's whole day: its posts, then its saves in order (the done mark last)."""

    actions: tuple[BotAction, ...] = ()
    posts: tuple[BotPost, ...] = ()


DayBot = Callable[[Mapping[str, Any], Sequence[Post], Rng], tuple[DayPlan, Rng]]
"""A level: from one seat's view (a JSON round-trip copy, S42), the posts that seat may read
(the Floor, the Ring Channel for the Ring, its whispers) and its own generator, the seat's
day and the generator after. Never the state."""
