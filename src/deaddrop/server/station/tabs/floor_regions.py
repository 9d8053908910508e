"""The Floor's public regions: the live tally, every vote (S21) and who whispered to whom
today (S31), built from the public fields of a view alone, so that they are the same for
every seat and a spectator and can be rendered once for all of them (station/live/regions.py).
"""

from __future__ import annotations

from typing import Any

from deaddrop.server.station.tabs.roles_text import vote_text

JSON = dict[str, Any]

REGIONS: dict[str, str] = {
    "tally": "station/tabs/floor_tally.html",
    "votes": "station/tabs/floor_votes.html",
    "announced": "station/tabs/floor_announced.html",
}
"""Each region of the Floor by name, and its template (wrapped in `<!--region:NAME-->`)."""


def floor_regions(view: JSON) -> JSON:
    """The regions' values, from fields every viewer's view holds alike (never `me`)."""
    votes = view["votes"]  # S21: public and live
    counts: dict[str, list[str]] = {}
    for entry in votes:
        if entry["vote"] not in (None, "abstain"):
            counts.setdefault(entry["vote"], []).append(entry["voter"])
    return {
        "day": view["day"],
        "votes": [{"voter": v["voter"], "vote": vote_text(v["vote"])} for v in votes],
        "tally": [
            {"codename": name, "count": len(voters), "voters": voters}
            for name, voters in sorted(counts.items(), key=lambda item: (-len(item[1]), item[0]))
        ],
        "abstaining": [v["voter"] for v in votes if v["vote"] == "abstain"],
        "not_voted": [v["voter"] for v in votes if v["vote"] is None],
        "living": len(votes),
        "threshold": view["threshold"],  # S21, from the engine
        # S31: everyone sees who whispered to whom today, never the text.
        "whispers_announced": [w for w in view["whispers_announced"] if w["day"] == view["day"]],
    }
