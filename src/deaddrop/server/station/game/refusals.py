"""Station's wording of the engine's refusals: the rule id and what the rule is about."""

from __future__ import annotations

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.server.hosting.refusals import Refused

RULE_NAMES = {
    "S1": "a table seats 6 to 10 players",
    "S3": "codenames",
    "S7": "saving and withdrawing",
    "S8": "only living players act, and only on living players",
    "S9": "who each role may target",
    "S10": "the Ring order",
    "S11": "who holds the Ring order",
    "S21": "the Tribunal vote",
    "S24": "the end of the game",
    "S31": "whispers",
    "S32": "the Final Cable",
    "S40": "the host's tools",
    "S41": "done for the day",
    "S43": "claims",
}
"""What each rule the engine may cite is about, for a person reading the refusal."""


def explain(error: IllegalAction) -> Refused:
    """The engine's refusal as a sentence a player understands, with the rule cited."""
    message = error.message[:1].upper() + error.message[1:]
    topic = RULE_NAMES.get(error.code)
    if error.code == "format":
        return Refused("That request was malformed: " + error.message + ".")
    suffix = f" (rule {error.code}: {topic})" if topic else f" (rule {error.code})"
    return Refused(message + suffix + ".", error.code)
