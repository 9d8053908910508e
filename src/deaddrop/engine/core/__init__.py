"""Pieces shared by both engines: seeded RNG, rule errors, audience-tagged events."""

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.core.rng import Rng

__all__ = ["Audience", "Event", "IllegalAction", "Rng"]
