"""What every game engine offers the programs that host it, under the same names for each game.

A host (the web server, a simulator, a bot harness) needs only these: `start(setup)` the game,
`apply(state, action) -> (state, events)` each decision, `view(state, seat)` for one seat (None:
a spectator), and the action codec to store the log as JSON. Each engine's package exposes them
by these names and as one `ENGINE` value (`deaddrop.engine.cards.ENGINE`, `...station.ENGINE`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from deaddrop.engine.core.events import Event

SetupT = TypeVar("SetupT")
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")


@dataclass(frozen=True)
class Engine(Generic[SetupT, StateT, ActionT]):
    """One game's rules as a host sees them: pure functions, no I/O."""

    name: str
    """The game's name, as its journal streams and URLs spell it."""
    start: Callable[[SetupT], StateT]
    """The state before the first decision."""
    apply: Callable[[StateT, ActionT], tuple[StateT, tuple[Event, ...]]]
    """One decision: the new state and the events it told whom (IllegalAction if refused)."""
    view: Callable[[StateT, int | None], dict[str, Any]]
    """What one seat (None: a spectator) may see, JSON-ready."""
    action_to_json: Callable[[ActionT], dict[str, Any]]
    """An action as stored in the log."""
    action_from_json: Callable[[Any], ActionT]
    """An action read back from the log (IllegalAction if malformed)."""
