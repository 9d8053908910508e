"""Scenario JSON <-> engine: the adjudication contract of scenarios/station/README.md."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.cable import result_json
from deaddrop.engine.station.game import BatchRefused, apply_day
from deaddrop.engine.station.pouch import advance
from deaddrop.engine.station.setup import Setup, check_deal, setup_from_deal, start
from deaddrop.engine.station.state import ABSTAIN, Order, PouchRecord, State

JSON = dict[str, Any]


class ScenarioError(ValueError):
    """An invalid scenario; the message is the one line the adjudicator prints."""

    def __init__(self, line: str, rule: str | None) -> None:
        super().__init__(line)
        self.line = line
        self.rule = rule


def parse_setup(scenario: Any) -> Setup:
    """The table of a scenario: codenames and roles in join order (S1, S2, S3)."""
    if not isinstance(scenario, dict):
        raise ScenarioError("scenario: the top level must be a JSON object", None)
    players = scenario.get("players")
    if not isinstance(players, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in players
    ):
        raise ScenarioError("scenario: players must be a list of [codename, role] pairs", None)
    try:
        table = [(codename, role) for codename, role in players]
        check_deal(table)
        setup = setup_from_deal(table)
    except IllegalAction as error:
        raise ScenarioError(f"players: {error.message} ({error.code})", error.code) from None
    return setup


def day_actions(
    state: State, day: int, spec: Any, seat_of: Mapping[str, int]
) -> Iterator[tuple[str, A.DayAction]]:
    """(actor codename, action) for everything one day of the scenario saved, in order."""
    if not isinstance(spec, dict):
        raise ScenarioError(f"day {day}: a day must be a JSON object", None)
    unknown = set(spec) - {"operations", "votes", "whispers"}
    if unknown:
        raise ScenarioError(f"day {day}: unknown keys {sorted(unknown)}", None)
    operations = _mapping(spec, "operations", day)
    for name, operation in operations.items():
        seat = _seat(seat_of, day, name, name)
        if operation is None:
            yield name, A.WithdrawOperation(seat)
        elif isinstance(operation, dict) and set(operation) == {"target"}:
            yield name, A.SaveOperation(seat, _seat(seat_of, day, name, operation["target"]))
        elif (
            isinstance(operation, dict)
            and set(operation) == {"order"}
            and isinstance(operation["order"], dict)
            and set(operation["order"]) == {"target", "performer"}
        ):
            order = operation["order"]
            target = _seat(seat_of, day, name, order["target"])
            performer = _seat(seat_of, day, name, order["performer"])
            yield name, A.SaveOrder(seat, target, performer)
        else:
            raise ScenarioError(
                f'day {day}: {name}: an operation is {{"target": X}}, '
                '{"order": {"target": X, "performer": Y}} or null',
                None,
            )
    for name, choice in _mapping(spec, "votes", day).items():
        seat = _seat(seat_of, day, name, name)
        if choice == "abstain":
            yield name, A.CastVote(seat, ABSTAIN)
        else:
            yield name, A.CastVote(seat, _seat(seat_of, day, name, choice))
    whispers = spec.get("whispers", [])
    if not isinstance(whispers, list):
        raise ScenarioError(f"day {day}: whispers must be a list of [sender, recipient]", None)
    for pair in whispers:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise ScenarioError(f"day {day}: a whisper is a [sender, recipient] pair", None)
        sender = _seat(seat_of, day, str(pair[0]), pair[0])
        yield str(pair[0]), A.SendWhisper(sender, _seat(seat_of, day, str(pair[0]), pair[1]))


def _mapping(spec: Mapping[str, Any], key: str, day: int) -> Mapping[str, Any]:
    """An optional object-valued key of a day."""
    value = spec.get(key, {})
    if not isinstance(value, dict):
        raise ScenarioError(f"day {day}: {key} must be a JSON object", None)
    return value


def _seat(seat_of: Mapping[str, int], day: int, actor: str, codename: Any) -> int:
    """The seat of a codename named in a scenario."""
    seat = seat_of.get(codename) if isinstance(codename, str) else None
    if seat is None:
        raise ScenarioError(f"day {day}: {actor}: no player is called {codename!r} (S3)", "S3")
    return seat


def pouch_json(state: State, record: PouchRecord) -> JSON:
    """One Pouch in the adjudication format."""
    seats = state.seats
    tally: JSON = {seats[seat].codename: n for seat, n in record.tally}
    tally["abstain"] = record.abstain
    return {
        "day": record.day,
        "tally": dict(sorted(tally.items())),
        "recalled": None if record.recalled is None else seats[record.recalled].codename,
        "deaths": [
            {
                "codename": seats[d.seat].codename,
                "causes": list(d.causes),
                "faction": seats[d.seat].faction.value,
            }
            for d in sorted(record.deaths, key=lambda d: seats[d.seat].codename)
        ],
        "rumor": None if record.rumor is None else seats[record.rumor.target].codename,
        "results": {
            seats[seat].codename: [result_json(seats, r) for r in results]
            for seat, results in sorted(record.results, key=lambda sr: seats[sr[0]].codename)
        },
        "defector_won": record.defector_won,
        "winner": record.winner,
    }


def run_scenario(scenario: Any, *, deadlines: list[State] | None = None) -> tuple[State, JSON]:
    """Play a scenario through the engine: the final state and the adjudication JSON.

    `deadlines`, when given, collects the state just before each Pouch (for benchmarks).
    """
    state = start(parse_setup(scenario))
    seat_of = {seat.codename: seat.index for seat in state.seats}
    days = scenario.get("days", [])
    if not isinstance(days, list):
        raise ScenarioError("scenario: days must be a list", None)
    for number, spec in enumerate(days, start=1):
        if state.over:
            raise ScenarioError(
                f"day {number}: the game ended at Day {state.day}'s Pouch (S24)", "S24"
            )
        saves = list(day_actions(state, number, spec, seat_of))
        try:
            state = apply_day(state, [action for _, action in saves])
        except BatchRefused as error:
            line = f"day {number}: {saves[error.index][0]}: {error.message} ({error.code})"
            raise ScenarioError(line, error.code) from None
        if deadlines is not None:
            deadlines.append(state)
        state = advance(state)  # the Pouch, without event payloads nobody reads here
    adjudication = {
        "days": [pouch_json(state, record) for record in state.history],
        "winner": state.winner,
        "defector_won": state.defector_won,
    }
    return state, adjudication


def adjudicate(scenario: Any) -> JSON:
    """The adjudication JSON of a scenario; ScenarioError when it is invalid."""
    return run_scenario(scenario)[1]


def export_scenario(state: State, name: str = "") -> JSON:
    """A played game as a scenario that `adjudicate` reproduces (no host removals)."""
    seats = state.seats
    days: list[JSON] = []
    for record in state.history:
        operations: JSON = {}
        for seat, operation in enumerate(record.operations):
            if operation is None:
                continue
            if isinstance(operation, Order):
                operations[seats[seat].codename] = {
                    "order": {
                        "target": seats[operation.target].codename,
                        "performer": seats[operation.performer].codename,
                    }
                }
            else:
                operations[seats[seat].codename] = {"target": seats[operation.target].codename}
        votes = {
            seats[seat].codename: "abstain" if vote == ABSTAIN else seats[vote].codename
            for seat, vote in enumerate(record.votes)
            if vote is not None
        }
        whispers = [
            [seats[w.sender].codename, seats[w.recipient].codename] for w in record.whispers
        ]
        days.append({"operations": operations, "votes": votes, "whispers": whispers})
    return {
        "name": name,
        "players": [[seat.codename, seat.role] for seat in seats],
        "days": days,
    }
