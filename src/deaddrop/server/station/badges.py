"""Per-tab "new since I last looked" counts: which tab shows each journaled event.

Pure: it takes journal rows the reader may already see (filtered by audience upstream) and the
reader's last-seen position per tab. The reader's own doings (their vote, their message) are
never "new" to them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

CAP = 99
"""Counts above this show as "99+": a badge says "look here", not an exact tally."""

CHAT_TABS = {"floor": "floor", "ring": "dossier", "archive": "dossier", "interrogation": "dossier"}
"""Where each chat channel is read (chat_view.TAB_CHANNELS)."""


KINDS_SHOWN_ON: dict[str, frozenset[str]] = {
    "cable": frozenset({"morning_cable", "host_notice", "player_removed", "game_over"}),
    "floor": frozenset({"message", "vote", "whisper_announced"}),
    "dossier": frozenset({"message", "whisper", "private_results"}),
    "operations": frozenset({"operation_saved"}),
    "roster": frozenset({"done_marked", "player_removed", "game_over"}),
}
"""The journal kinds each tab may count (a superset of what `tabs_showing` says: the database
reads only these, each after its tab's last look; `tabs_showing` decides per event)."""


@dataclass(frozen=True)
class Reader:
    """Who is counting: their seat and codename (to leave out their own doings)."""

    seat: int
    codename: str


def tabs_showing(kind: str, payload: Mapping[str, Any], reader: Reader) -> tuple[str, ...]:
    """The tabs on which this event is news to this reader (none for their own doings)."""
    if kind == "message":
        if payload.get("seat") == reader.seat:
            return ()
        tab = CHAT_TABS.get(str(payload.get("channel")))
        return (tab,) if tab else ()
    if kind == "vote":
        return () if payload.get("voter") == reader.codename else ("floor",)
    if kind == "done_marked":  # shown on the Roster (S41)
        return () if payload.get("codename") == reader.codename else ("roster",)
    if kind == "whisper_announced":
        return () if payload.get("sender") == reader.codename else ("floor",)
    if kind == "whisper":
        return () if payload.get("sender") == reader.codename else ("dossier",)
    if kind == "operation_saved":
        return () if payload.get("codename") == reader.codename else ("operations",)
    if kind in ("morning_cable", "host_notice"):
        return ("cable",)
    if kind in ("player_removed", "game_over"):
        return ("cable", "roster")
    if kind == "private_results":
        return ("dossier",)
    return ()  # e.g. final_cable_saved: only ever the reader's own


def count_new(
    events: Iterable[tuple[int, str, Mapping[str, Any]]],
    seen: Mapping[str, int],
    reader: Reader,
) -> dict[str, int]:
    """For (seq, kind, payload) events, how many per tab lie after that tab's seen position."""
    counts: dict[str, int] = {}
    for seq, kind, payload in events:
        for tab in tabs_showing(kind, payload, reader):
            if seq > seen.get(tab, 0):
                counts[tab] = counts.get(tab, 0) + 1
    return counts


def badge_text(count: int) -> str:
    """What the badge shows: the count, or "99+"."""
    return f"{CAP}+" if count > CAP else str(count)
