"""The "Make a claim" form (S43): its choices from the game, and the posted fields as a claim.

The form never writes a claim's text itself: it builds the engine's claim from the fields and
asks the engine for the canonical sentence (`format_post`), then the text goes the way free
text goes (`do_post`, or a whisper), where the engine checks it like any post. So a claim made
here is a claim exactly when the engine reads it as one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station.claims import (
    ROLE_NAMES,
    Claim,
    ClaimContext,
    Protection,
    ProtectionClaim,
    Reading,
    ReadingClaim,
    RoleClaim,
    Stance,
    StanceClaim,
    VisitClaim,
    VisitorsClaim,
    WhisperCountClaim,
    format_post,
    parse_post,
)
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.station.game.refusals import explain

Fields = Mapping[str, str]
VISITOR = "visitor_"
"""Checkboxes `visitor_1`, `visitor_2` … each carry one codename (one name per field, so a
script sending the form as a flat JSON object loses none)."""


@dataclass(frozen=True)
class ClaimChoices:
    """What the form offers, all public facts of the game."""

    roles: list[tuple[str, str]]
    """(role, its name) of the roles this table size has (S1)."""
    living: list[str]
    """Living codenames: whom one may suspect or trust now."""
    everyone: list[str]
    """Every codename, burned too: a past day's claim may name the dead."""
    days: list[int]
    """Days whose Pouch has left, newest first: the only days a claim may be about."""


def claim_choices(seen: Mapping[str, Any]) -> ClaimChoices | None:
    """The form's choices from a view (all of them public); None once the game is over."""
    if seen["over"]:
        return None
    context = ClaimContext.of_view(seen)
    roles = [(role, name) for role, name in ROLE_NAMES.items() if role in context.roles]
    roster = seen["roster"]
    return ClaimChoices(
        roles=roles,
        living=[entry["codename"] for entry in roster if entry["alive"]],
        everyone=[entry["codename"] for entry in roster],
        days=list(range(context.last_pouch, 0, -1)),
    )


def refuse_claim(message: str) -> Refused:
    """A refusal of a claim's fields, worded as the engine's S43 refusals are."""
    return explain(IllegalAction("S43", message))


def _field(fields: Fields, name: str, allowed: tuple[str, ...] = ()) -> str:
    """A field's value, required; one of `allowed` when given."""
    value = fields.get(name, "").strip()
    if not value:
        raise refuse_claim(f"choose the claim's {name}")
    if allowed and value not in allowed:
        raise refuse_claim(f"the claim's {name} is one of {', '.join(allowed)}")
    return value


def _codename(fields: Fields, name: str) -> str:
    return _field(fields, name).upper()


def _number(fields: Fields, name: str) -> int:
    value = _field(fields, name)
    if not value.isdecimal() or len(value) > 6:
        raise refuse_claim(f"the claim's {name} is a whole number")
    return int(value)


def _role(fields: Fields) -> Claim:
    return RoleClaim(_field(fields, "role", tuple(ROLE_NAMES)))


def _stance(fields: Fields) -> Claim:
    chosen = _field(fields, "stance", ("suspect", "trust"))
    stance: Stance = "suspect" if chosen == "suspect" else "trust"
    return StanceClaim(stance, _codename(fields, "target"))


def _reading(fields: Fields) -> Claim:
    reading = _field(fields, "reading", ("CLEAR", "COMPROMISED"))
    value: Reading = "CLEAR" if reading == "CLEAR" else "COMPROMISED"
    return ReadingClaim(_number(fields, "day"), _codename(fields, "target"), value)


def _visitors(fields: Fields) -> Claim:
    named = [key for key, value in fields.items() if key.startswith(VISITOR) and value.strip()]
    visitors = sorted({fields[key].strip().upper() for key in named})  # as a Watcher reads them
    return VisitorsClaim(_number(fields, "day"), _codename(fields, "target"), tuple(visitors))


def _visit(fields: Fields) -> Claim:
    visited = fields.get("visited", "").strip().upper() or None  # nothing chosen: stayed home
    return VisitClaim(_number(fields, "day"), _codename(fields, "target"), visited)


def _count(fields: Fields) -> Claim:
    return WhisperCountClaim(
        _number(fields, "day"), _codename(fields, "target"), _number(fields, "count")
    )


def _protection(fields: Fields) -> Claim:
    chosen = _field(fields, "act", ("sheltered", "detained"))
    act: Protection = "sheltered" if chosen == "sheltered" else "detained"
    return ProtectionClaim(_number(fields, "day"), act, _codename(fields, "target"))


KINDS: dict[str, Callable[[Fields], Claim]] = {
    "role": _role,
    "stance": _stance,
    "reading": _reading,
    "visitors": _visitors,
    "visit": _visit,
    "count": _count,
    "protection": _protection,
}
"""Every kind of S43 claim the form makes, by its `kind` field."""


def compose_claim(fields: Fields) -> str:
    """The canonical text of the claim the fields describe; Refused (S43) when they do not."""
    build = KINDS.get(fields.get("kind", "").strip())
    if build is None:
        raise refuse_claim(f"choose the kind of claim: {', '.join(KINDS)}")
    claim = build(fields)
    text = format_post([claim])
    try:
        parsed = parse_post(text)
    except IllegalAction as error:
        raise explain(error) from None
    # A name that is no codename's shape ("O'NEIL") would make free text of the sentence.
    if parsed != (claim,):
        raise refuse_claim(
            f"{text!r} is not a claim the game can read; choose names from the lists"
        )
    return text
