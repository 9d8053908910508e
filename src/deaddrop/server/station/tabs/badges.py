"""Per-tab "new since I last looked" counts: which tab shows each journaled event.

Pure: it takes journal rows the reader may already see (filtered by audience upstream) and the
reader's last-seen position per tab. The reader's own doings (their vote, their message) are
never "new" to them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from deaddrop.server.station.chat.view import TAB_CHANNELS

CAP = 99
"""Counts above this show as "99+": a badge says "look here", not an exact tally."""

CHAT_TABS = {channel.value: tab for tab, channels in TAB_CHANNELS.items() for channel in channels}
"""The tab each chat channel is read on."""

KINDS_SHOWN_ON: dict[str, frozenset[str]] = {
    "cable": frozenset({"morning_cable", "host_notice", "player_removed", "game_over"}),
    "floor": frozenset({"message", "vote", "whisper_announced"}),
    "dossier": frozenset({"message", "whisper", "private_results"}),
    "operations": frozenset({"operation_saved"}),
    "roster": frozenset({"done_marked", "player_removed", "game_over"}),
}
"""The journal kinds each tab shows: the database reads only these, each after its tab's last
look; a message counts on the tab of its channel only (`CHAT_TABS`)."""

ACTOR = {
    "message": "seat",
    "vote": "voter",
    "done_marked": "codename",
    "whisper_announced": "sender",
    "whisper": "sender",
    "operation_saved": "codename",
}
"""The payload field naming who did it: one's own doings are never news to oneself."""


@dataclass(frozen=True)
class Reader:
    """Who is counting: their seat and codename (to leave out their own doings)."""

    seat: int
    codename: str


def tabs_showing(kind: str, payload: Mapping[str, Any], reader: Reader) -> tuple[str, ...]:
    """The tabs on which this event is news to this reader (none for their own doings)."""
    actor = ACTOR.get(kind)
    if actor is not None:
        mine = reader.seat if actor == "seat" else reader.codename
        if payload.get(actor) == mine:
            return ()
    if kind == "message":
        tab = CHAT_TABS.get(str(payload.get("channel")))
        return (tab,) if tab else ()
    return tuple(tab for tab, kinds in KINDS_SHOWN_ON.items() if kind in kinds)


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
