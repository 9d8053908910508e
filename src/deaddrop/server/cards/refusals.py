"""Cards' wording of the engine's refusals: the rule id and name, seats counted from 1."""

from __future__ import annotations

import re

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.server.hosting.refusals import Refused

_SEAT = re.compile(r"\bseat (\d+)")

RULE_NAMES = {
    "C2": "players and the deal",
    "C3": "turn order",
    "C4": "Share Info",
    "C5": "trading with an eliminated player",
    "C6": "Swap the Stash",
    "C7": "Sell Secrets",
    "C8": "Grab the Drop",
    "C9": "last agent standing",
    "C11": "the end of the game",
    "C12": "what each player may see",
    "action": "a well-formed move",
}


def from_illegal(error: IllegalAction) -> Refused:
    """The engine's refusal with its rule id spelled out, e.g. "… (rule C7, Sell Secrets)"."""
    name = RULE_NAMES.get(error.code)
    rule = f"rule {error.code}, {name}" if name and error.code != "action" else name or error.code
    # The engine counts seats from 0; the table shows them from 1.
    message = _SEAT.sub(lambda found: f"seat {int(found.group(1)) + 1}", error.message)
    message = message[:1].upper() + message[1:]
    return Refused(f"{message} ({rule}).", error.code)
