"""Putting a Station bot's day together: legal saves, well-formed claim posts (S43), and the
small choices every level shares (the best-scored item, today's vote leader, one's own results
as claims). Shared by the `heuristic` and `expert` levels."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from deaddrop.bots.station.base import BotAction, BotPost, DayPlan
from deaddrop.bots.station.known import Known
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.claims import (
    Claim,
    ClaimContext,
    ProtectionClaim,
    ReadingClaim,
    VisitClaim,
    VisitorsClaim,
    WhisperCountClaim,
    check_claim,
    format_post,
)
from deaddrop.engine.station.roles import TEXT_LIMIT
from deaddrop.engine.station.state import ABSTAIN


class DayBuilder:
    """A day being put together for one seat."""

    def __init__(self, known: Known) -> None:
        self.known = known
        self.seat_of = {c: i for i, c in enumerate(known.codenames)}
        self.seat = self.seat_of[known.me]
        self.actions: list[BotAction] = []
        self.posts: list[BotPost] = []

    def operation(self, target: str | None) -> None:
        """Queue one's own ability on a legal target (S9)."""
        if target is not None and target in self.known.options["ability_targets"]:
            self.actions.append(A.SaveOperation(self.seat, self.seat_of[target]))

    def vote(self, target: str | None) -> None:
        """Vote for a living player, or Abstain (S21)."""
        choice = ABSTAIN if target is None else self.seat_of[target]
        self.actions.append(A.CastVote(self.seat, choice))

    def post(self, channel: str, claims: Sequence[Claim]) -> None:
        """Post claims that pass the S43 format check (checked here from the view alone)."""
        good = well_formed(self.known, claims)
        if good:
            self.posts.append(BotPost("ring" if channel == "ring" else "floor", format_post(good)))

    def whisper(self, recipient: str, claims: Sequence[Claim]) -> None:
        """A whisper carrying claims (S31, S43), if one is left today."""
        good = well_formed(self.known, claims)
        if good and recipient in self.known.options["whisper_recipients"]:
            text = format_post(good)
            self.actions.append(A.SendWhisper(self.seat, self.seat_of[recipient], text))

    def final_cable(self, claims: Sequence[Claim]) -> None:
        """Keep the Final Cable (S32) the latest claims that fit, when it changed."""
        good = well_formed(self.known, claims)
        while good and len(format_post(good)) > TEXT_LIMIT:
            good = good[:1] + good[2:]  # keep the role, drop the oldest result
        text = format_post(good) if good else ""
        if text != self.known.view["me"]["final_cable"]:
            self.actions.append(A.EditFinalCable(self.seat, text))

    def plan(self) -> DayPlan:
        """The day, marked done (S41)."""
        return DayPlan((*self.actions, A.MarkDone(self.seat)), tuple(self.posts))


def well_formed(known: Known, claims: Sequence[Claim]) -> list[Claim]:
    """The claims that pass the S43 format check against this game's public facts."""
    context = ClaimContext.of_view(known.view)
    good = []
    for claim in claims:
        try:
            check_claim(claim, context)
        except ValueError:
            continue
        good.append(claim)
    return good


def best(items: Sequence[str], key: Callable[[str], float], rng: Rng) -> tuple[str | None, Rng]:
    """The item with the highest key, ties broken by the generator; None when there are none."""
    if not items:
        return None, rng
    top = max(key(i) for i in items)
    tied = [i for i in items if key(i) == top]
    choice, rng = rng.choice(tied)
    return choice, rng


def live_leader(known: Known, exclude: Sequence[str] = ()) -> tuple[str | None, int]:
    """Today's live vote leader (S21) and its votes, leaving some players out."""
    tally = Counter(
        vote
        for day, _, vote in known.votes
        if day == known.day and vote not in (None, "abstain") and vote not in exclude
    )
    if not tally:
        return None, 0
    (name, count), *rest = tally.most_common()
    if rest and rest[0][1] == count:
        return None, count  # a tie leads nobody
    return name, count


def result_claims(known: Known) -> list[Claim]:
    """This seat's own results as claims, truthfully (S19 → S43)."""
    out: list[Claim] = []
    for day, r in known.results:
        kind, target = r.get("kind"), str(r.get("target", ""))
        if kind == "analyst":
            out.append(ReadingClaim(day, target, r["reading"]))
        elif kind == "watcher":
            out.append(VisitorsClaim(day, target, tuple(r["visitors"])))
        elif kind == "shadow":
            out.append(VisitClaim(day, target, r["visited"]))
        elif kind == "field_agent":
            out.append(WhisperCountClaim(day, target, r["whispers"]))
        elif kind == "safehouse_needed":
            out.append(ProtectionClaim(day, "sheltered", target))
    return out


def names_a_suspect(known: Known, claim: Claim) -> bool:
    """Whether a result of mine points at someone: worth outing myself for."""
    if isinstance(claim, ReadingClaim):
        return claim.reading == "COMPROMISED" and claim.target in known.living
    if isinstance(claim, VisitorsClaim):
        return known.liquidated.get(claim.target) == claim.day and bool(claim.visitors)
    if isinstance(claim, VisitClaim):
        return known.liquidated.get(claim.visited or "") == claim.day
    return False
