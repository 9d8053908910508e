"""S43 claims: the machine-readable sentences a post may carry, their format and where they are.

A claim is an assertion, never a fact: the engine checks its FORMAT (known roles, codenames of
this game, days whose Pouch has left) and never its truth.

How a post is marked as a claim: by its body alone. A body made only of claim sentences, one
space between them ("I am the Analyst. Day 2: I read HERON as COMPROMISED."), is a claim post;
any other body is free text. A sentence that has a claim's shape but names an unknown role, a
codename not in the game or a day that has not happened is refused with S43, so a claim that
was posted is always well formed. The canonical text of every claim is `format_claim`'s, and
`parse_claim(format_claim(c)) == c` holds for every claim.

Chat is stored by the server, not the engine, so the view holds no Floor or Ring Channel
posts; `claims_in` reads a list of posts the seat can see (the server's posts for its channels
plus `whisper_posts(view)`, the whispers the view does hold).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, TypeAlias

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.records import record
from deaddrop.engine.station.roles import FIELD_AGENT, ROLE_TABLE, ROLES
from deaddrop.engine.station.state import State

Reading = Literal["CLEAR", "COMPROMISED"]
Protection = Literal["sheltered", "detained"]
Stance = Literal["suspect", "trust"]
ClaimChannel = Literal["floor", "ring", "whisper"]
"""S43: the places a claim may be made: the Floor, the Ring Channel, a whisper."""


@record
class RoleClaim:
    """ "I am the Analyst.": the author's role."""

    role: str


@record
class ReadingClaim:
    """ "Day 2: I read HERON as COMPROMISED.": an Analyst's result."""

    day: int
    target: str
    reading: Reading


@record
class VisitorsClaim:
    """ "Day 2: HERON was visited by OWL and RAVEN." (or "had no visitors."): a Watcher's result."""

    day: int
    target: str
    visitors: tuple[str, ...]


@record
class VisitClaim:
    """ "Day 2: HERON visited OWL." or "Day 2: HERON stayed home.": a Shadow's result."""

    day: int
    target: str
    visited: str | None


@record
class WhisperCountClaim:
    """ "Day 2: HERON sent and received 3 whispers.": a Field Agent's result."""

    day: int
    target: str
    count: int


@record
class ProtectionClaim:
    """ "Day 2: I sheltered HERON." / "Day 2: I detained HERON.": a Keeper's, Interrogator's act."""

    day: int
    action: Protection
    target: str


@record
class StanceClaim:
    """ "I suspect HERON." or "I trust HERON.": an opinion of a player."""

    stance: Stance
    target: str


Claim: TypeAlias = (
    RoleClaim
    | ReadingClaim
    | VisitorsClaim
    | VisitClaim
    | WhisperCountClaim
    | ProtectionClaim
    | StanceClaim
)

# The role names of the player's guide; the Field Agent is the one role a table may hold twice.
ROLE_NAMES: dict[str, str] = {
    "ringleader": "Ringleader",
    "forger": "Forger",
    "honeytrap": "Honeytrap",
    "analyst": "Analyst",
    "watcher": "Watcher",
    "shadow": "Shadow",
    "safehouse_keeper": "Safehouse Keeper",
    "interrogator": "Interrogator",
    "field_agent": "Field Agent",
    "defector": "Defector",
}
_ROLE_OF_NAME = {name: role for role, name in ROLE_NAMES.items()}
assert set(ROLE_NAMES) == set(ROLES)


def _article(role: str) -> str:
    """ "a Field Agent" (there may be two), "the" for every other role."""
    return "a" if role == FIELD_AGENT else "the"


def _names(codenames: Sequence[str]) -> str:
    """An English list: "OWL", "OWL and RAVEN", "OWL, RAVEN and HERON"."""
    if len(codenames) == 1:
        return codenames[0]
    return ", ".join(codenames[:-1]) + " and " + codenames[-1]


def format_claim(claim: Claim) -> str:
    """The canonical sentence of a claim."""
    if isinstance(claim, RoleClaim):
        return f"I am {_article(claim.role)} {ROLE_NAMES[claim.role]}."
    if isinstance(claim, StanceClaim):
        return f"I {claim.stance} {claim.target}."
    if isinstance(claim, ReadingClaim):
        body = f"I read {claim.target} as {claim.reading}"
    elif isinstance(claim, VisitorsClaim):
        if claim.visitors:
            body = f"{claim.target} was visited by {_names(claim.visitors)}"
        else:
            body = f"{claim.target} had no visitors"
    elif isinstance(claim, VisitClaim):
        visit = "stayed home" if claim.visited is None else f"visited {claim.visited}"
        body = f"{claim.target} {visit}"
    elif isinstance(claim, WhisperCountClaim):
        noun = "whisper" if claim.count == 1 else "whispers"
        body = f"{claim.target} sent and received {claim.count} {noun}"
    else:
        body = f"I {claim.action} {claim.target}"
    return f"Day {claim.day}: {body}."


# The shapes. A codename is a word of capitals (S3); a role name, capitalised words.
_NAME = r"[A-Z]+"
_NUMBER = r"0|[1-9][0-9]*"
_ROLE = re.compile(r"I am (a|an|the) ([A-Z][a-z]+(?: [A-Z][a-z]+)*)\.")
_STANCE = re.compile(rf"I (suspect|trust) ({_NAME})\.")
_DAY = re.compile(rf"Day ({_NUMBER}): (.*)\.")
_READ = re.compile(rf"I read ({_NAME}) as (CLEAR|COMPROMISED)")
_VISITED_BY = re.compile(rf"({_NAME}) was visited by ({_NAME}(?:, {_NAME})*(?: and {_NAME})?)")
_NO_VISITORS = re.compile(rf"({_NAME}) had no visitors")
_VISIT = re.compile(rf"({_NAME}) (?:visited ({_NAME})|stayed home)")
_COUNT = re.compile(rf"({_NAME}) sent and received ({_NUMBER}) (whispers?)")
_PROTECT = re.compile(rf"I (sheltered|detained) ({_NAME})")


def _refuse(message: str) -> IllegalAction:
    """The error for a sentence shaped like a claim that is not a well-formed one."""
    return IllegalAction("S43", message)


def parse_claim(text: str) -> Claim | None:
    """The claim one sentence makes; None for free text; IllegalAction (S43) when malformed."""
    if match := _ROLE.fullmatch(text):
        article, name = match.groups()
        role = _ROLE_OF_NAME.get(name)
        if role is None:
            known = ", ".join(ROLE_NAMES.values())
            raise _refuse(f"there is no role {name!r}; the roles are {known}")
        if article != _article(role):
            raise _refuse(f"write the claim as {format_claim(RoleClaim(role))!r}")
        return RoleClaim(role)
    if match := _STANCE.fullmatch(text):
        stance, target = match.groups()
        return StanceClaim("suspect" if stance == "suspect" else "trust", target)
    match = _DAY.fullmatch(text)
    if match is None:
        return None
    day, body = int(match[1]), match[2]
    claim = _day_claim(day, body)
    if claim is None:
        return None
    if day < 1:
        raise _refuse("a claim's day is Day 1 or later")
    return claim


def _day_claim(day: int, body: str) -> Claim | None:
    """The claim about a day's result or act, from the sentence after "Day D: "."""
    if match := _READ.fullmatch(body):
        reading: Reading = "CLEAR" if match[2] == "CLEAR" else "COMPROMISED"
        return ReadingClaim(day, match[1], reading)
    if match := _VISITED_BY.fullmatch(body):
        visitors = re.split(r", | and ", match[2])
        if len(visitors) > 1 and " and " not in match[2]:
            raise _refuse("join the last two visitors with 'and'")
        if len(set(visitors)) != len(visitors):
            raise _refuse("a visitor is named twice")
        return VisitorsClaim(day, match[1], tuple(visitors))
    if match := _NO_VISITORS.fullmatch(body):
        return VisitorsClaim(day, match[1], ())
    if match := _VISIT.fullmatch(body):
        return VisitClaim(day, match[1], match[2])
    if match := _COUNT.fullmatch(body):
        count = int(match[2])
        if (match[3] == "whisper") != (count == 1):
            raise _refuse("write '1 whisper' and 'N whispers' for any other N")
        return WhisperCountClaim(day, match[1], count)
    if match := _PROTECT.fullmatch(body):
        action: Protection = "sheltered" if match[1] == "sheltered" else "detained"
        return ProtectionClaim(day, action, match[2])
    return None


# Claim sentences end with "." and none holds ". ", so a body splits into them unambiguously.
_SENTENCE_BREAK = re.compile(r"(?<=\.) ")


def parse_post(text: str) -> tuple[Claim, ...]:
    """The claims of a post body, in order; () when the body is free text (S43 when malformed).

    A body is a claim post when every sentence of it is a claim; a post that mixes claims with
    free text is free text, so a person's words are never half read as a claim.
    """
    claims: list[Claim] = []
    for sentence in _SENTENCE_BREAK.split(text):
        claim = parse_claim(sentence)
        if claim is None:
            return ()
        claims.append(claim)
    return tuple(claims)


def format_post(claims: Sequence[Claim]) -> str:
    """The canonical body of a post holding these claims (one space between sentences)."""
    if not claims:
        raise ValueError("a claim post holds at least one claim")
    return " ".join(format_claim(claim) for claim in claims)


@record
class ClaimContext:
    """What a claim's format is checked against: public facts of one game."""

    codenames: frozenset[str]
    """Every codename at the table, living or burned."""
    roles: frozenset[str]
    """The roles of this table size (S1)."""
    last_pouch: int
    """The last day whose Pouch has left (0 on Day 1): later days have not happened."""

    @classmethod
    def of_state(cls, state: State) -> ClaimContext:
        """The context of a game."""
        codenames = frozenset(seat.codename for seat in state.seats)
        last = max((record.day for record in state.history), default=0)
        return cls(codenames, frozenset(ROLE_TABLE[len(state.seats)]), last)

    @classmethod
    def of_view(cls, seen: Mapping[str, Any]) -> ClaimContext:
        """The same context from any seat's view (everything it needs is public)."""
        codenames = frozenset(entry["codename"] for entry in seen["roster"])
        last = max((cable["day"] for cable in seen["cables"]), default=0)
        return cls(codenames, frozenset(ROLE_TABLE[len(codenames)]), last)


def _named(claim: Claim) -> tuple[str, ...]:
    """Every codename a claim names."""
    if isinstance(claim, RoleClaim):
        return ()
    if isinstance(claim, VisitorsClaim):
        return (claim.target, *claim.visitors)
    if isinstance(claim, VisitClaim) and claim.visited is not None:
        return (claim.target, claim.visited)
    return (claim.target,)


def check_claim(claim: Claim, context: ClaimContext) -> None:
    """Refuse (S43) a claim naming a role, codename or day this game does not have."""
    if isinstance(claim, RoleClaim):
        if claim.role not in context.roles:
            raise _refuse(f"a table of {len(context.codenames)} has no {ROLE_NAMES[claim.role]}")
        return
    for codename in _named(claim):
        if codename not in context.codenames:
            raise _refuse(f"there is no player {codename} in this game")
    day = getattr(claim, "day", None)
    if day is not None and day > context.last_pouch:
        raise _refuse(f"Day {day} has not happened yet (its Pouch has not left)")


def check_post_claims(state: State, text: str) -> tuple[Claim, ...]:
    """The claims of a post about to be made in this game; IllegalAction (S43) if malformed."""
    if not text:
        return ()  # every text-less whisper (all of a scenario's): no sentence to read
    claims = parse_post(text)
    if not claims:
        return claims  # free text (most posts, every text-less whisper): nothing to check
    context = ClaimContext.of_state(state)
    for claim in claims:
        check_claim(claim, context)
    return claims


@record
class Post:
    """One message a seat can see: a Floor post, a Ring Channel message or a whisper."""

    day: int
    author: str
    """The author's codename."""
    channel: ClaimChannel
    text: str


@record
class SeenClaim:
    """A claim as a seat saw it: when, by whom, where."""

    day: int
    author: str
    channel: ClaimChannel
    claim: Claim


def whisper_posts(seen: Mapping[str, Any]) -> list[Post]:
    """The whispers a seat's view holds (sent or received, S31) as posts."""
    me = seen.get("me") or {}
    return [Post(w["day"], w["sender"], "whisper", w["text"]) for w in me.get("whispers", [])]


def claims_in(posts: Iterable[Post]) -> list[SeenClaim]:
    """Every claim in these posts, in their order; free text and malformed bodies are skipped.

    Posts were checked when they were made, so a malformed body here (an old log, a post
    made before claims existed) is free text, never an error.
    """
    found: list[SeenClaim] = []
    for post in posts:
        try:
            claims = parse_post(post.text)
        except IllegalAction:
            continue
        found.extend(SeenClaim(post.day, post.author, post.channel, c) for c in claims)
    return found
