"""A scenario's usual day, read and checked in one pass: the adjudicator's fast path.

Nearly every day of a played game (`random-games`, the bots) saves only Operations, orders,
votes and text-less whispers that the rules allow. `usual_saves` reads such a day straight into
the saves a State would hold, with each rule's usual case tested inline: no (seat, save) pairs
made and read again, no call a save. Anything else (a withdrawal, a malformed entry, a name
nobody has, a save a rule refuses) gives None, and the scenario then reads the day with
`scenario.parse_day` and checks it with `saves.check_saves`, which give the same saves or say
what is wrong. `tests/engine/station/test_usual_day.py` holds the two paths to each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deaddrop.engine.station.actions import ABILITY_ROLES, SELF_AIMING_ROLES
from deaddrop.engine.station.resolution import Saved
from deaddrop.engine.station.roles import INTERROGATOR, RING_ROLES, WHISPERS_PER_DAY
from deaddrop.engine.station.saves import whisper_record
from deaddrop.engine.station.state import (
    ABILITY_ON,
    ABSTAIN,
    Operation,
    Order,
    State,
    Vote,
    Whisper,
)

DAY_KEYS = frozenset({"operations", "votes", "whispers"})
"""What a scenario's day may hold."""

_UNUSUAL = (KeyError, TypeError, AttributeError)
"""A name nobody has, a name that is no string, a part of the wrong type: not a usual day."""


def usual_saves(state: State, spec: Any, seat_of: Mapping[str, int]) -> Saved | None:
    """The day's saves as `check_saves` would give them when the day is a usual one, else None."""
    if type(spec) is not dict or not DAY_KEYS.issuperset(spec):
        return None
    if state.winner is not None or state.whispers:  # S24; a scenario's day starts with none
        return None
    try:
        operations = _operations(state, spec.get("operations", {}), seat_of)
        if operations is None:
            return None
        votes = _votes(state, spec.get("votes", {}), seat_of)
        if votes is None:
            return None
        whispers = _whispers(state, spec.get("whispers", ()), seat_of)
    except _UNUSUAL:
        return None
    return None if whispers is None else (operations, votes, whispers)


def _operations(
    state: State, saved: Mapping[str, Any], seat_of: Mapping[str, int]
) -> tuple[Operation | None, ...] | None:
    """Each seat's Operation once the day's are saved, if each is one the rules allow (S8-S10)."""
    alive, seats, last_detained = state.alive, state.seats, state.last_detained
    operations = list(state.operations)
    for name, operation in saved.items():
        seat = seat_of[name]
        if type(operation) is not dict or len(operation) != 1 or not alive[seat]:
            return None  # a withdrawal, a malformed entry, or a burned player (S8)
        if "target" in operation:
            target = seat_of[operation["target"]]
            role = seats[seat].role
            # S8, S9: a living target this role may name, not yesterday's detainee again.
            if not (
                alive[target]
                and role in (SELF_AIMING_ROLES if target == seat else ABILITY_ROLES)
                and (target != last_detained or role != INTERROGATOR)
            ):
                return None
            operations[seat] = ABILITY_ON[target]
            continue
        order = operation["order"]
        if type(order) is not dict or len(order) != 2:
            return None
        target, performer = seat_of[order["target"]], seat_of[order["performer"]]
        # S10: from Day 2, by the order-holder, on a living non-Ring target, by a living Ring
        # performer.
        if not (
            state.day > 1
            and seat == state.order_holder
            and alive[target]
            and alive[performer]
            and seats[target].role not in RING_ROLES
            and seats[performer].role in RING_ROLES
        ):
            return None
        operations[seat] = Order(target, performer)
    return tuple(operations)


def _votes(
    state: State, saved: Mapping[str, Any], seat_of: Mapping[str, int]
) -> tuple[Vote, ...] | None:
    """Each seat's vote once the day's are saved, if each names a living player or Abstains
    and comes from a living one (S8, S21)."""
    alive = state.alive
    votes = list(state.votes)
    for name, choice in saved.items():
        seat = seat_of[name]
        vote = ABSTAIN if choice == "abstain" else seat_of[choice]
        if not (alive[seat] and (vote == ABSTAIN or alive[vote])):
            return None
        votes[seat] = vote
    return tuple(votes)


def _whispers(state: State, saved: Any, seat_of: Mapping[str, int]) -> tuple[Whisper, ...] | None:
    """The day's whisper records, if each goes from a living player to another living one,
    two a sender at most (S31); a scenario's whispers carry no text."""
    alive, day = state.alive, state.day
    whispers, sent = [], [0] * len(alive)
    for pair in saved:
        if type(pair) is not list or len(pair) != 2:
            return None
        sender, recipient = seat_of[pair[0]], seat_of[pair[1]]
        if not (
            sent[sender] < WHISPERS_PER_DAY
            and sender != recipient
            and alive[sender]
            and alive[recipient]
        ):
            return None
        sent[sender] += 1
        whispers.append(whisper_record(day, sender, recipient, ""))
    return tuple(whispers)
