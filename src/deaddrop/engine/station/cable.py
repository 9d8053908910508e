"""The Morning Cable and other Pouch events, as JSON-ready payloads with their audience."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.station.state import ABSTAIN, Death, PouchRecord, Result, Seat, State

JSON = dict[str, Any]


def vote_json(seats: Sequence[Seat], choice: int | None) -> str | None:
    """A vote as shown: a codename, "abstain", or None when nothing is saved."""
    if choice is None:
        return None
    return "abstain" if choice == ABSTAIN else seats[choice].codename


def result_json(codenames: Sequence[str], result: Result) -> JSON:
    """A private result in the adjudication format (scenarios/station/README.md), with each
    seat's codename given (`codenames`), read once for all of a Pouch's results."""
    kind, value = result.kind, result.value
    target = codenames[result.target]
    if kind == "interrogation":
        return {"kind": kind, "with": target}
    out: JSON = {"kind": kind, "target": target}
    if kind == "analyst":
        out["reading"] = value
    elif kind == "watcher":
        assert isinstance(value, tuple)
        out["visitors"] = sorted([codenames[v] for v in value])
    elif kind == "shadow":
        out["visited"] = codenames[value] if isinstance(value, int) else None
    elif kind == "field_agent":
        out["whispers"] = value
    return out


def death_json(seats: Sequence[Seat], death: Death) -> JSON:
    """A burned player as the Cable names them: never the exact role (S23)."""
    seat = seats[death.seat]
    return {
        "codename": seat.codename,
        "causes": list(death.causes),
        "faction": seat.faction.value,
        "final_cable": death.final_cable,
    }


def cable_json(seats: Sequence[Seat], record: PouchRecord) -> JSON:
    """The public Morning Cable of one Pouch (S23): deaths, votes, tally, rumor, wins."""
    tally: JSON = {seats[seat].codename: n for seat, n in record.tally}
    tally["abstain"] = record.abstain
    return {
        "day": record.day,
        "deaths": [death_json(seats, death) for death in record.deaths],
        "votes": [
            {"voter": seats[voter].codename, "vote": vote_json(seats, record.votes[voter])}
            for voter in record.living
        ],
        "tally": tally,
        "threshold": record.threshold,
        "recalled": None if record.recalled is None else seats[record.recalled].codename,
        "rumor": None
        if record.rumor is None
        else {"target": seats[record.rumor.target].codename, "text": record.rumor.text},
        "defector_won": record.defector_won,
        "winner": record.winner,
    }


def reveal_json(state: State) -> JSON:
    """The end-of-game reveal of every role (S26)."""
    return {
        "winner": state.winner,
        "defector_won": state.defector_won,
        "roles": [
            {"codename": seat.codename, "role": seat.role, "faction": seat.faction.value}
            for seat in state.seats
        ],
    }


def pouch_events(state: State, record: PouchRecord) -> tuple[Event, ...]:
    """The Cable for everyone, each private result for its seat alone, the reveal at the end."""
    seats = state.seats
    events = [Event("morning_cable", cable_json(seats, record), Audience.everyone())]
    codenames = [seat.codename for seat in seats]
    for seat, results in record.results:
        payload = {"day": record.day, "results": [result_json(codenames, r) for r in results]}
        events.append(Event("private_results", payload, Audience.only(seat)))
    if state.over:
        events.append(Event("game_over", reveal_json(state), Audience.everyone()))
    return tuple(events)
