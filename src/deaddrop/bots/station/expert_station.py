"""The `expert` Station seat's Operation and vote, chosen from the posterior alone.

Each role acts where the posterior says it pays most: the Analyst reads the unread player most
likely the Ring (a player already certain either way teaches nothing); the Watcher watches the
likeliest victim (S19: the performer shows among its visitors); the Shadow and the Field Agent
follow the likeliest Ring player still in doubt; the Keeper shelters the likeliest victim; the
Interrogator detains the likeliest Ring performer, never the one it detained at the last Pouch
(S9), or shelters by detention (S14) when nobody stands out. The vote joins a leader who is
likely the Ring so votes reach the threshold (S21), else names the likeliest Ring player when
the evidence is strong enough, else abstains: a wrong recall costs the Station a player. A
player who votes for itself courts its recall (the Defector, S25): never joined, and its
backers are voted against, since a recall spent on it costs the Station a day. A counter-vote
against a push counts only if the Station's votes meet (S21), and each seat's belief differs:
so they agree on one mark by a public rule, the earliest-joined backer (S2) the seat's own
evidence does not clear, and a counter-vote that already ties the push is joined.
"""

from __future__ import annotations

from collections import Counter

from deaddrop.bots.station.day_builder import live_leader
from deaddrop.bots.station.expert_policy import (
    Posterior,
    likely_victim,
    ring_p,
    ring_prior,
    top,
    unresolved,
)
from deaddrop.bots.station.known import Known
from deaddrop.engine.station.roles import ROLE_TABLE

VOTE_P = 0.5
"""Vote for the likeliest Ring player alone once it is at least this likely."""
JOIN_P = 0.3
"""Join today's leader once it is at least this likely the Ring ..."""
JOIN_LEAN = 1.15
"""... and this many times likelier than the prior: a leader no likelier is a Ring bloc's pick."""
LEAN = 1.6
"""With no leader, vote a suspect this many times likelier than the prior (it moves others)."""
COUNTER_FLOOR = 0.5
"""A backer is a counter-vote's mark unless this seat finds it this much less likely the Ring
than the prior (its own evidence clears it)."""
DETAIN_LEAN = 1.25
"""Detain a suspect only this much likelier than the prior; else detain to protect."""


def previous_detainee(known: Known) -> str | None:
    """The player this Interrogator detained at the last Pouch (S9), from its own record."""
    for entry in known.view["me"].get("interrogations", []):
        if entry["day"] == known.day - 1:
            return str(entry["with"])
    return None


def self_voters(known: Known) -> set[str]:
    """Players who voted for themselves today at a table with a Defector: its mark (S25)."""
    if "defector" not in ROLE_TABLE[len(known.codenames)]:
        return set()
    return {voter for day, voter, vote in known.votes if day == known.day and voter == vote}


def backers(known: Known, leader: str, others: list[str]) -> list[str]:
    """The other players who voted for today's leader (S21), the leader itself left out."""
    return [
        voter
        for day, voter, vote in known.votes
        if day == known.day and vote == leader and voter in others and voter != leader
    ]


def counter_mark(known: Known, belief: Posterior, voters: list[str]) -> str | None:
    """The one backer every Station seat can agree to vote against, whatever its own belief:
    the earliest joined (S2) that its evidence does not clear; else the likeliest Ring."""
    floor = COUNTER_FLOOR * ring_prior(known)
    for c in known.codenames:
        if c in voters and ring_p(belief, c) >= floor:
            return c
    return top(known, voters, lambda c: ring_p(belief, c))


def tied_counter(known: Known, belief: Posterior, others: list[str]) -> str | None:
    """When today's top votes tie (S21: nobody recalled), a tied player who backs another tied
    one is a counter-vote under way against a push: joining it breaks the tie against the
    pushers rather than for their mark."""
    tally = Counter(
        vote for day, _, vote in known.votes if day == known.day and vote not in (None, "abstain")
    )
    if len(tally) < 2:
        return None
    best = max(tally.values())
    tied = [c for c, n in tally.items() if n == best]
    marks = [
        c
        for c in tied
        if c in others and any(c in backers(known, t, others) for t in tied if t != c)
    ]
    return top(known, marks, lambda c: ring_p(belief, c))


def station_target(known: Known, belief: Posterior) -> str | None:
    """The Operation's target for a Station seat's role (S9), or None for No action."""
    role = known.role
    legal = [c for c in known.options["ability_targets"] if c != known.me]
    if role == "interrogator":
        banned = previous_detainee(known)
        legal = [c for c in legal if c != banned]
    doubtful = [c for c in legal if unresolved(belief, c)]
    if role == "analyst":
        already = {str(r["target"]) for _, r in known.results if r.get("kind") == "analyst"}
        fresh = [c for c in doubtful if c not in already]
        return top(known, fresh or doubtful or legal, lambda c: ring_p(belief, c))
    if role in ("watcher", "safehouse_keeper"):
        victim = likely_victim(known, belief)
        return victim if victim in legal else top(known, legal, lambda c: -ring_p(belief, c))
    if role == "interrogator":
        suspect = top(known, legal, lambda c: ring_p(belief, c))
        if suspect is not None and ring_p(belief, suspect) >= DETAIN_LEAN * ring_prior(known):
            return suspect
        victim = likely_victim(known, belief, exclude=[] if banned is None else [banned])
        return victim if victim in legal else suspect
    return top(known, doubtful or legal, lambda c: ring_p(belief, c))


def station_vote(known: Known, belief: Posterior) -> str | None:
    """Whom a Station seat votes for (S21), or None to Abstain: a likely-Ring leader, else
    against the backers of a player who votes for itself (S25), else the likeliest Ring player
    when it is likely enough, else against a recall nobody has a reason for (the likeliest Ring
    player among its voters: a bloc that votes together is the Ring's way), else a clear
    suspect while no recall is under way."""
    courting = self_voters(known)
    others = [c for c in known.living if c != known.me]
    suspect = top(
        known, [c for c in others if c not in courting] or others, lambda c: ring_p(belief, c)
    )
    if suspect is None:
        return None
    prior = ring_prior(known)
    p_top = ring_p(belief, suspect)
    leader, votes = live_leader(known)
    joinable = leader is not None and leader not in (known.me, *courting) and votes >= 1
    if joinable and ring_p(belief, str(leader)) >= max(JOIN_P, JOIN_LEAN * prior, 0.6 * p_top):
        return leader  # S21: votes meet on one player, or nobody is recalled
    voters = [] if leader is None else backers(known, leader, others)
    if leader in courting and voters:
        return counter_mark(known, belief, voters)  # S25: a recall not to spend
    counter = tied_counter(known, belief, others) if leader is None else None
    if counter is not None:
        return counter
    if p_top >= VOTE_P:
        return suspect
    if leader is not None and (votes >= known.view["threshold"] - 1 or leader in courting):
        return counter_mark(known, belief, voters) or suspect
    if leader is None and p_top >= LEAN * prior and p_top > 0:
        return suspect
    return None
