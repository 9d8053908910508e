"""`GameInfo`: what a game page needs besides the engine's view (the contract between the
game service, which fills it, and the tab pages, which render it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as the Roster shows it, beside what the engine's view says of it."""

    codename: str
    """The seat's codename (S3); the engine's roster entry has the rest."""
    display_name: str | None
    """The person now holding the seat, shown only once the game is over (S3, S26)."""
    previous_holders: int
    """How many people held the seat before a replacement (S40)."""
    inactive: bool
    """Saved nothing and posted nothing for two days running (issue 4)."""
    bot_level: str | None = None
    """A bot seat's level (random, heuristic, expert): public to everyone (S42)."""


@dataclass(frozen=True, slots=True)
class Announcement:
    """A host action, announced publicly in the game (issue 4: no S40 tool is silent)."""

    day: int
    """The day it happened on."""
    kind: str
    """paused, resumed, pause_expired, extended, replaced, removed, spectators_on/off."""
    text: str
    """What the table reads, in codenames only (S3)."""
    at: datetime
    """When it happened, aware UTC."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game, seen by one person: everything a tab needs that is not in the engine's view."""

    game_id: str
    """The game's public, unguessable id (used in URLs)."""
    title: str
    """The host's title for the game."""
    status: str
    """lobby, running, paused or over."""
    seat: int | None
    """The viewer's seat, or None for a spectator."""
    is_host: bool
    """Whether the viewer created the game (S40 tools)."""
    deadline: datetime | None
    """Today's Pouch, aware UTC; None in the lobby, while paused, or after the game."""
    game_time_zone: str
    """The IANA zone the game's Pouch time is set in (S40)."""
    viewer_time_zone: str
    """The viewer's own IANA zone, for the countdown and timestamps."""
    early_pouch: bool
    """Whether S41 is on for this game."""
    seats: tuple[SeatInfo, ...] = ()
    """Per seat, in join order: what the server knows of the people."""
    spectator_url: str | None = None
    """The public spectator link when the host turned it on, for the host to share."""
    version: int = 0
    """The table's epoch this page was built from (`writes.table_epoch`: Pouches and removals,
    both public): forms send it back as `version`, so that a save from a page older than the
    last Pouch is refused as stale, not applied to a new day. Never the game's own version,
    which counts every seat's private saves."""
    announcements: tuple[Announcement, ...] = ()
    """Every host action, oldest first, for the Cable or the Floor to show."""
    pause_ends_at: datetime | None = None
    """While paused: when the pause ends by itself (72 hours at most)."""
    host_tools_url: str | None = None
    """For the host: the page of the S40 tools (pause, extend, replace, remove, spectators)."""
    inactive_prompt: tuple[str, ...] = ()
    """For the host: codenames inactive two days running, to consider replacing."""
    practice: bool = False
    """A practice game of one person against bots (marked "Practice"; Jump to the end)."""
