"""The roles of Station as data: the S1 table, factions and how each role targets (S9)."""

from __future__ import annotations

from enum import StrEnum


class Faction(StrEnum):
    """The three sides (S23 names them in the Morning Cable)."""

    STATION = "station"
    RING = "ring"
    NEUTRAL = "neutral"


class Targeting(StrEnum):
    """Which living players a role's Operation may name (S9)."""

    ANY = "any"
    """Any living Officer, oneself included."""
    OTHER = "other"
    """Another living Officer, never oneself."""
    NONE = "none"
    """No targeted ability of its own (the Ringleader: its Operation is the Ring order)."""


RINGLEADER = "ringleader"
FORGER = "forger"
HONEYTRAP = "honeytrap"
ANALYST = "analyst"
WATCHER = "watcher"
SHADOW = "shadow"
SAFEHOUSE_KEEPER = "safehouse_keeper"
INTERROGATOR = "interrogator"
FIELD_AGENT = "field_agent"
DEFECTOR = "defector"

FACTION: dict[str, Faction] = {
    RINGLEADER: Faction.RING,
    FORGER: Faction.RING,
    HONEYTRAP: Faction.RING,
    ANALYST: Faction.STATION,
    WATCHER: Faction.STATION,
    SHADOW: Faction.STATION,
    SAFEHOUSE_KEEPER: Faction.STATION,
    INTERROGATOR: Faction.STATION,
    FIELD_AGENT: Faction.STATION,
    DEFECTOR: Faction.NEUTRAL,
}

# S9: who each role's Operation may target.
TARGETING: dict[str, Targeting] = {
    RINGLEADER: Targeting.NONE,
    FORGER: Targeting.ANY,
    HONEYTRAP: Targeting.OTHER,
    ANALYST: Targeting.ANY,
    WATCHER: Targeting.ANY,
    SHADOW: Targeting.OTHER,
    SAFEHOUSE_KEEPER: Targeting.OTHER,
    INTERROGATOR: Targeting.OTHER,
    FIELD_AGENT: Targeting.ANY,
    DEFECTOR: Targeting.ANY,
}

ROLES: tuple[str, ...] = tuple(FACTION)

# S1: the exact role set for each table size; no other roles exist.
ROLE_TABLE: dict[int, tuple[str, ...]] = {
    6: (RINGLEADER, FORGER, ANALYST, SAFEHOUSE_KEEPER, FIELD_AGENT, FIELD_AGENT),
    7: (RINGLEADER, FORGER, ANALYST, SAFEHOUSE_KEEPER, WATCHER, FIELD_AGENT, FIELD_AGENT),
    8: (
        RINGLEADER, FORGER, ANALYST, SAFEHOUSE_KEEPER, WATCHER, FIELD_AGENT, FIELD_AGENT,
        DEFECTOR,
    ),
    9: (
        RINGLEADER, FORGER, HONEYTRAP, ANALYST, SAFEHOUSE_KEEPER, WATCHER, INTERROGATOR,
        FIELD_AGENT, FIELD_AGENT,
    ),
    10: (
        RINGLEADER, FORGER, HONEYTRAP, ANALYST, SAFEHOUSE_KEEPER, WATCHER, INTERROGATOR,
        SHADOW, FIELD_AGENT, DEFECTOR,
    ),
}  # fmt: skip

MIN_PLAYERS = min(ROLE_TABLE)
MAX_PLAYERS = max(ROLE_TABLE)

# S3: bird codenames, upper case; a game draws as many distinct ones as it has players.
BIRDS: tuple[str, ...] = (
    "OWL", "RAVEN", "HERON", "WREN", "KESTREL", "FALCON", "SWIFT", "MAGPIE", "PLOVER",
    "EGRET", "CRANE", "LARK", "KITE", "ROBIN", "FINCH", "STORK", "IBIS", "TERN",
)  # fmt: skip

LAST_DAY = 10
"""S6, S24: Day 10's Pouch is the last one."""

TEXT_LIMIT = 2000
"""S32 (and the whisper text): at most this many characters."""

WHISPERS_PER_DAY = 2
"""S31: a living player may send two whispers a day."""


RING_ROLES = frozenset(role for role, faction in FACTION.items() if faction is Faction.RING)
"""The Ring's roles (S1), for a membership test where a check runs on every save."""


def is_ring(role: str) -> bool:
    """Whether a role belongs to the Ring."""
    return role in RING_ROLES
