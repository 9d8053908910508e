"""The likelihood model of the Station belief: every factor of soft evidence and its parameter.

Hard facts (S5, S10, S14, S16, S18, S19, S23, S26) are zeros: an assignment they rule out
weighs 0. Soft evidence weighs an assignment by the factors below; each is a relative weight
(only ratios between assignments matter), and every one is positive (checked), so soft
evidence never rules an assignment out and the posterior's support is the hard facts' alone.

Factor (what it depends on): weight, with its parameter.
- Own Analyst reading (S16, S19), of the target's role: COMPROMISED weighs 1 for a Forger or
  Honeytrap and `frame_rate` (a frame) for anyone else; CLEAR weighs 0 for a Forger or
  Honeytrap (hard) and 1 - `frame_rate` for anyone else. The rate is one number, whether or
  not the Forger still lives (which burned Ring member was the Forger stays secret, S23).
- A vote for another player (S21), of the voter's and the target's factions: `vote` table.
- A vote for oneself, of the voter's faction (S25: the Defector wants it): `self_vote`.
- "I suspect X" / "I trust X" (S43), of the author's and X's factions: `suspect`, `trust`.
- An announced whisper (S31), of the sender's and the recipient's factions: `whisper`.
- A claim its author's role backs (S43), of its content's truth: 1 if true, `slip` if false.
- A claim its author's role cannot back (a lie), of the author's faction: `lie`; a Ring lie
  off the Ring's story (CLEAR on a non-Ring player, COMPROMISED on a Ring one) times
  `ring_off_story`.
- A visit to the night's liquidation victim (own Shadow result, or an honest Shadow claim),
  of the visitor's faction: 1 for the Ring, `victim_visit` for anyone else; the victim's
  visitors in a Watcher result hold a Ring member (hard, S18).
- A player the seat's Shadow saw stay home (S13), of its label: 1 for the Ringleader (its
  only visit is a liquidation it performs, S12), `stay_home` for anyone else (a role with an
  ability stays home only by choice, or when cancelled, S15). A seen visit is hard: the
  Ringleader visits on no Day 1 (S10), never a Ring player (S10), and a player it visited
  who survived had a Station visitor too (S14, S17, S18) when the Watcher saw them all, at a
  table with no Honeytrap (S15: a distracted Interrogator's detention stands, unseen).
- A Ring Channel record by the Ring (S29, S43), true among the Ring, of the roles it names:
  the order "Day D: P visited T" that T survived means the Keeper sheltered T at a table with
  neither Interrogator nor Honeytrap (S1, S17, S18): `slip` for a Keeper who is T or was
  burned before Day D; "Day D: X visited P" of a Ring member P is a detention: `slip` unless X
  is the Interrogator (S14).
- "I sheltered X" and X was liquidated that night: `distracted` (S15) at tables with a
  Honeytrap, else false (`slip`).

Cancelled results produce nothing (S19) and rumors carry no information (S27), so neither has
a factor. A Field Agent's whisper count repeats the public announcements (S31): no factor.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from deaddrop.engine.station.roles import FACTION

STATION, RING, NEUTRAL = "station", "ring", "neutral"
FACTIONS = (STATION, RING, NEUTRAL)

FactionTable = dict[tuple[str, str], float]
"""(author's or voter's faction, target's faction) -> weight."""


def _table(station: tuple[float, float, float], ring: tuple[float, float, float]) -> FactionTable:
    """A table from the Station's and the Ring's rows (a Defector's row is flat)."""
    rows = {STATION: station, RING: ring, NEUTRAL: (1.0, 1.0, 1.0)}
    return {(a, b): rows[a][i] for a in FACTIONS for i, b in enumerate(FACTIONS)}


@dataclass(frozen=True, slots=True)
class Likelihood:
    """The parameters of every soft factor (see the module's table)."""

    frame_rate: float = 0.15
    vote: FactionTable = field(default_factory=lambda: _table((1.0, 2.0, 1.0), (1.0, 0.3, 1.0)))
    self_vote: dict[str, float] = field(
        default_factory=lambda: {STATION: 0.1, RING: 0.1, NEUTRAL: 1.0}
    )
    suspect: FactionTable = field(default_factory=lambda: _table((1.0, 2.0, 1.0), (1.0, 0.3, 1.0)))
    trust: FactionTable = field(default_factory=lambda: _table((1.0, 0.5, 1.0), (0.7, 1.5, 1.0)))
    whisper: FactionTable = field(default_factory=lambda: _table((1.0, 0.9, 1.0), (1.0, 0.6, 1.0)))
    slip: float = 0.01
    lie: dict[str, float] = field(default_factory=lambda: {STATION: 0.03, RING: 0.5, NEUTRAL: 0.3})
    ring_off_story: float = 0.2
    victim_visit: float = 0.3
    distracted: float = 0.2
    stay_home: float = 0.4

    def __post_init__(self) -> None:
        """Refuse a factor of 0 or less: soft evidence weighs, only hard facts rule out."""
        scalars = [self.slip, self.ring_off_story, self.victim_visit, self.distracted]
        scalars.append(self.stay_home)
        tables: list[Mapping[Any, float]] = [self.vote, self.suspect, self.trust, self.whisper]
        tables += [self.self_vote, self.lie]
        weights = scalars + [x for t in tables for x in t.values()]
        if not 0.0 < self.frame_rate < 1.0 or min(weights) <= 0.0:
            raise ValueError("every soft factor is positive and the frame rate is in (0, 1)")


DEFAULT = Likelihood()


def label(role: str) -> str:
    """What the faction-level enumeration tells apart: each non-Station role, or "station"."""
    return STATION if FACTION[role].value == STATION else role


def faction_of_label(lab: str) -> str:
    """The faction (S23) of a label."""
    return STATION if lab == STATION else FACTION[lab].value
