"""The `expert` Ring seat's own ballot: a Ring that never votes as a visible bloc.

The expert Station counter-votes the backers of a push its belief does not share (S21: the
earliest-joined backer its evidence does not clear), so a Ring that opens a push on an
unsuspected outsider hands the Station a Ring member to recall. Each Ring seat therefore
decides its vote live, at its turn, from today's public tally (S21) and its own view (S42):
it defends a mate the Station is pushing by voting the outsider closest to the top (a tie
recalls nobody), or buses a mate whose recall one vote cannot stop (a vote on the Ring clears
its voter); it follows a push the Station opened on an outsider; it joins the Ring's
agreed target only when outsiders back it already or the Station finds it likely the Ring
(a fake reading named it, S43); else it abstains, which the Station never counter-votes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from deaddrop.bots.station.expert_policy import top
from deaddrop.bots.station.known import Known

LEAD_SUSPICION = 4.0
"""The public suspicion at which the Ring may open a push on its agreed target alone: the
Station's own belief then leans on that player too, so its seats join rather than counter."""

BUS_GAP = 2
"""A mate this many votes ahead of every outsider at the threshold is lost: one vote can't tie."""


def today_tally(known: Known) -> Counter[str]:
    """Today's live votes per living target (S21: votes are public and shown live)."""
    return Counter(
        vote
        for day, _, vote in known.votes
        if day == known.day and vote not in (None, "abstain") and vote in known.living
    )


def outside_backers(known: Known, target: str) -> list[str]:
    """Today's voters for `target` who are neither the Ring nor the target itself."""
    return [
        voter
        for day, voter, vote in known.votes
        if day == known.day and vote == target and voter not in known.ring and voter != target
    ]


def defend_mate(known: Known, tally: Counter[str], public: Mapping[str, float]) -> str | None:
    """When a mate leads or ties the tally (S21), the outsider closest to it: my vote there
    ties or beats the push, and a tie recalls nobody."""
    mates = [c for c in tally if c in known.ring and c != known.me]
    mine = tally.get(known.me, 0)
    best = max(tally.values())
    if not any(tally[m] == best for m in mates) and mine < best:
        return None
    outsiders = [c for c in known.living if c not in known.ring]
    closest = top(known, outsiders, lambda c: tally.get(c, 0) + 0.01 * public.get(c, 0.0))
    pushed = [m for m in mates if tally[m] == best]
    lost = best - (tally.get(closest, 0) if closest else 0) >= BUS_GAP
    if len(pushed) == 1 and lost and best >= known.view["threshold"]:
        return pushed[0]  # its recall is sealed: my vote on it clears me instead (bus)
    return closest


def ring_ballot(known: Known, plan: str | None, public: Mapping[str, float]) -> str | None:
    """This Ring seat's vote (S21), or None to Abstain: defend a pushed mate, follow a push
    the Station opened, back the agreed target when it is safe, else stay out of the tally."""
    tally = today_tally(known)
    if tally:
        defence = defend_mate(known, tally, public)
        if defence is not None:
            return defence
        outside = [c for c in tally if c not in known.ring]
        followed = top(known, outside, lambda c: tally[c] + 0.01 * public.get(c, 0.0))
        if followed is not None and outside_backers(known, followed):
            return followed  # a Station push: its backers are Station, not my mates
    if plan is None:
        return None
    if outside_backers(known, plan) or public.get(plan, 0.0) >= LEAD_SUSPICION:
        return plan
    return None
