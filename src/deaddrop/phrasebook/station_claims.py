"""Station claims in words (S43): a claim post as the plain sentences a person reads.

The engine's canonical text ("Day 2: I read FINCH as COMPROMISED.") is what bots read; people
read "HERON says: on day 2 I read FINCH as compromised." Every front that shows posts (the
chat panels, the live push, the history pages, the whispers) takes its sentences from here.
"""

from __future__ import annotations

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station.claims import (
    Claim,
    ClaimChannel,
    ReadingClaim,
    RoleClaim,
    StanceClaim,
    format_claim,
    parse_post,
)

CLAIM_CHANNELS: tuple[ClaimChannel, ...] = ("floor", "ring", "whisper")
"""S43: where a post may be a claim; a claim-shaped text elsewhere is free text."""


def claim_sentence(author: str, claim: Claim) -> str:
    """One claim as a plain sentence naming its author."""
    # The engine's canonical words, turned from a record into speech: bots read the former.
    said = format_claim(claim).removesuffix(".")
    if isinstance(claim, RoleClaim):
        return f"{author} claims to be {said.removeprefix('I am ')}."
    if isinstance(claim, StanceClaim):
        return f"{author} {claim.stance}s {claim.target}."
    said = said.split(": ", 1)[1]
    if isinstance(claim, ReadingClaim):
        said = said.removesuffix(claim.reading) + claim.reading.lower()
    return f"{author} says: on day {claim.day} {said}."


def post_sentences(author: str, channel: str, text: str) -> tuple[str, ...]:
    """The plain sentences of a claim post in a claim channel; () for free text.

    A malformed body (a post made before claims were checked) is free text, as the bots read it.
    """
    if channel not in CLAIM_CHANNELS:
        return ()
    try:
        claims = parse_post(text)
    except IllegalAction:
        return ()
    return tuple(claim_sentence(author, claim) for claim in claims)
