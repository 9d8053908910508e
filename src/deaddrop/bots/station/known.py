"""What one seat knows, read from its view and the posts it may see (S42): nothing else.

The facts here are the ones a careful player would note: who lives, who burned as what
faction (S23), one's own results (S19), the Ring's members for the Ring (S5), the public vote
record (S21) and whisper traffic (S31), and every claim seen (S43), Final Cables of the
burned included (S32: published with the death).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station.claims import (
    Claim,
    Post,
    ReadingClaim,
    RoleClaim,
    SeenClaim,
    VisitClaim,
    VisitorsClaim,
    WhisperCountClaim,
    claims_in,
    parse_post,
)

INVESTIGATORS = frozenset({"analyst", "watcher", "shadow"})
"""Roles whose results name the Ring: the ones the Ring most wants gone."""

RESULT_ROLE: dict[type, str] = {
    ReadingClaim: "analyst",
    VisitorsClaim: "watcher",
    VisitClaim: "shadow",
    WhisperCountClaim: "field_agent",
}
"""The role a result claim implies its author holds."""


@dataclass(frozen=True, slots=True)
class Known:
    """One seat's knowledge on one day."""

    day: int
    me: str
    role: str
    faction: str
    codenames: tuple[str, ...]
    """Every codename in join order (S2)."""
    living: tuple[str, ...]
    dead: Mapping[str, str]
    """Burned codename → published faction (S23)."""
    liquidated: Mapping[str, int]
    """Liquidated codename → the day of the Pouch that killed them."""
    results: tuple[tuple[int, Mapping[str, Any]], ...]
    """(day, result) of this seat's own private results (S19)."""
    ring: frozenset[str]
    """The Ring's members when this seat is one of them (S5); empty otherwise."""
    claims: tuple[SeenClaim, ...]
    """Every claim seen on the Floor, in the Ring Channel and in this seat's whispers."""
    wills: Mapping[str, tuple[Claim, ...]]
    """The claims in each burned player's published Final Cable."""
    whisper_counts: Mapping[tuple[int, str], int]
    """(day, codename) → whispers sent plus received: public (S31)."""
    votes: tuple[tuple[int, str, str | None], ...]
    """(day, voter, vote) of every Pouch, and today's live votes as day `day`."""
    options: Mapping[str, Any]
    view: Mapping[str, Any]

    def floor_claims(self) -> list[SeenClaim]:
        """Claims made in public."""
        return [c for c in self.claims if c.channel == "floor"]

    def role_claims(self) -> dict[str, str]:
        """Each author's public role, as claimed (the last claim wins; results imply roles)."""
        roles: dict[str, str] = {}
        for seen in self.floor_claims():
            if isinstance(seen.claim, RoleClaim):
                roles[seen.author] = seen.claim.role
            elif type(seen.claim) in RESULT_ROLE and seen.author not in roles:
                roles[seen.author] = RESULT_ROLE[type(seen.claim)]
        for author, claims in self.wills.items():
            for claim in claims:
                if isinstance(claim, RoleClaim):
                    roles[author] = claim.role
        return roles

    def my_claims(self, channel: str = "floor") -> list[Claim]:
        """What this seat has already claimed in a channel (so its story stays consistent)."""
        return [c.claim for c in self.claims if c.author == self.me and c.channel == channel]


def read_if_playing(seen: Mapping[str, Any], posts: Sequence[Post]) -> Known | None:
    """What the seat knows (`read`), or None when it has no day to play: the game is over, or
    the view is not a seat's, or the seat is burned."""
    me = seen.get("me")
    if seen["over"] or me is None or not me["alive"]:
        return None
    return read(seen, posts)


def read(seen: Mapping[str, Any], posts: Sequence[Post]) -> Known:
    """Everything a seat knows, from its view and its readable posts alone."""
    me = seen["me"]
    roster = seen["roster"]
    dead: dict[str, str] = {}
    liquidated: dict[str, int] = {}
    wills: dict[str, tuple[Claim, ...]] = {}
    for entry in roster:
        death = entry["death"]
        if death is None:
            continue
        dead[entry["codename"]] = death["faction"]
        if "liquidated" in death["causes"]:
            liquidated[entry["codename"]] = death["day"]
        try:
            wills[entry["codename"]] = (
                parse_post(death["final_cable"]) if death["final_cable"] else ()
            )
        except IllegalAction:
            wills[entry["codename"]] = ()
    counts: Counter[tuple[int, str]] = Counter()
    for w in seen["whispers_announced"]:
        counts[(w["day"], w["sender"])] += 1
        counts[(w["day"], w["recipient"])] += 1
    votes = [
        (cable["day"], v["voter"], v["vote"]) for cable in seen["cables"] for v in cable["votes"]
    ]
    votes += [(seen["day"], v["voter"], v["vote"]) for v in seen["votes"]]
    ring = frozenset(m["codename"] for m in seen.get("ring", {}).get("members", []))
    return Known(
        day=seen["day"],
        me=me["codename"],
        role=me["role"],
        faction=me["faction"],
        codenames=tuple(e["codename"] for e in roster),
        living=tuple(e["codename"] for e in roster if e["alive"]),
        dead=dead,
        liquidated=liquidated,
        results=tuple((day["day"], r) for day in me["results"] for r in day["results"]),
        ring=ring,
        claims=tuple(claims_in(posts)),
        wills=wills,
        whisper_counts=dict(counts),
        votes=tuple(votes),
        options=me["options"],
        view=seen,
    )
