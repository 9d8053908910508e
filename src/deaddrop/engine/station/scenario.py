"""Scenario JSON <-> engine: the adjudication contract of scenarios/station/README.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station.cable import result_json
from deaddrop.engine.station.codec import is_pairs
from deaddrop.engine.station.pouch import advance
from deaddrop.engine.station.resolution import Saved
from deaddrop.engine.station.roles import FACTION
from deaddrop.engine.station.saves import BatchRefused, check_saves, with_saves
from deaddrop.engine.station.setup import setup_from_deal, start
from deaddrop.engine.station.state import (
    ABILITY_ON,
    ABSTAIN,
    Operation,
    Order,
    PouchRecord,
    Seat,
    State,
)
from deaddrop.engine.station.usual_day import DAY_KEYS, usual_saves

JSON = dict[str, Any]


class ScenarioError(ValueError):
    """An invalid scenario; the message is the one line the adjudicator prints."""

    def __init__(self, line: str, rule: str | None) -> None:
        super().__init__(line)
        self.line = line
        self.rule = rule


def start_scenario(scenario: Any) -> State:
    """The state at the start of a scenario's table: codenames and roles in join order (S1-S3)."""
    if not isinstance(scenario, dict):
        raise ScenarioError("scenario: the top level must be a JSON object", None)
    players = scenario.get("players")
    if not is_pairs(players):
        raise ScenarioError("scenario: players must be a list of [codename, role] pairs", None)
    try:
        return start(setup_from_deal([(codename, role) for codename, role in players]))
    except IllegalAction as error:  # `start` checks the deal (S1, S3)
        raise ScenarioError(f"players: {error.message} ({error.code})", error.code) from None


DaySaves = tuple[
    list[tuple[int, Operation | None]], list[tuple[int, int]], list[tuple[int, int, str]]
]
"""One day of a scenario as `game.save_day` takes it: operations, votes, whispers."""


def parse_day(day: int, spec: Any, seat_of: Mapping[str, int]) -> DaySaves:
    """Everything one day of the scenario saved, in order, with codenames read as seats (S3)."""
    if not isinstance(spec, dict):
        raise ScenarioError(f"day {day}: a day must be a JSON object", None)
    if not DAY_KEYS.issuperset(spec):
        raise ScenarioError(f"day {day}: unknown keys {sorted(set(spec) - DAY_KEYS)}", None)
    operations = [
        (_seat(seat_of, day, name, name), _operation(seat_of, day, name, operation))
        for name, operation in _mapping(spec, "operations", day).items()
    ]
    votes = _votes(seat_of, day, _mapping(spec, "votes", day))
    pairs = spec.get("whispers", [])
    if not isinstance(pairs, list):
        raise ScenarioError(f"day {day}: whispers must be a list of [sender, recipient]", None)
    whispers = []
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise ScenarioError(f"day {day}: a whisper is a [sender, recipient] pair", None)
        sender, recipient = pair
        actor = str(sender)
        whispers.append(
            (_seat(seat_of, day, actor, sender), _seat(seat_of, day, actor, recipient), "")
        )
    return operations, votes, whispers


def _votes(seat_of: Mapping[str, int], day: int, votes: Mapping[str, Any]) -> list[tuple[int, int]]:
    """(voter, choice) for each saved vote; a name nobody has is refused (S3)."""
    seat = seat_of.get
    try:
        found = [
            (seat(name), ABSTAIN if choice == "abstain" else seat(choice))
            for name, choice in votes.items()
        ]  # the usual case: every name is a codename, looked up without a call a name
        if not any([voter is None or choice is None for voter, choice in found]):
            return found  # type: ignore[return-value]
    except TypeError:
        pass  # a name that is no string at all (a list, an object): refused below
    return [
        (
            _seat(seat_of, day, name, name),
            ABSTAIN if choice == "abstain" else _seat(seat_of, day, name, choice),
        )
        for name, choice in votes.items()
    ]


def _operation(seat_of: Mapping[str, int], day: int, name: str, spec: Any) -> Operation | None:
    """An operation of the scenario: {"target": X}, {"order": {...}} or null (withdrawn)."""
    if spec is None:
        return None
    if isinstance(spec, dict) and len(spec) == 1:
        if "target" in spec:
            return ABILITY_ON[_seat(seat_of, day, name, spec["target"])]
        order = spec.get("order")
        if (
            isinstance(order, dict)
            and len(order) == 2
            and "target" in order
            and "performer" in order
        ):
            target = _seat(seat_of, day, name, order["target"])
            return Order(target, _seat(seat_of, day, name, order["performer"]))
    raise ScenarioError(
        f'day {day}: {name}: an operation is {{"target": X}}, '
        '{"order": {"target": X, "performer": Y}} or null',
        None,
    )


def _actor(spec: Mapping[str, Any], index: int) -> str:
    """The codename that made the day's save number `index` (operations, votes, whispers)."""
    names: list[str] = [*spec.get("operations", {}), *spec.get("votes", {})]
    names += [str(pair[0]) for pair in spec.get("whispers", [])]
    return names[index]


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
    return _pouch_json(SeatNames(state.seats), record)


_FACTION_NAMES = {role: faction.value for role, faction in FACTION.items()}
"""Each role's faction as the adjudication prints it."""


class SeatNames:
    """Each seat's codename and faction as the adjudication prints them, read once a game.

    A seat's faction goes through a property, a dict and an Enum's `value`: a few thousand
    machine instructions each time, more than the rest of a death's JSON.
    """

    __slots__ = ("codenames", "factions")

    def __init__(self, seats: Sequence[Seat]) -> None:
        self.codenames = [seat.codename for seat in seats]
        self.factions = [_FACTION_NAMES[seat.role] for seat in seats]


def _pouch_json(table: SeatNames, record: PouchRecord) -> JSON:
    """One Pouch in the adjudication format, with the table's names read beforehand."""
    # Plain loops rather than comprehensions: each comprehension is a function made and
    # called, and a Pouch's JSON is a few small ones.
    names, factions = table.codenames, table.factions
    tally = [("abstain", record.abstain)]
    for seat, n in record.tally:
        tally.append((names[seat], n))
    tally.sort()
    deaths = []
    for death in record.deaths:
        seat = death.seat
        deaths.append(
            {"codename": names[seat], "causes": list(death.causes), "faction": factions[seat]}
        )
    if len(deaths) > 1:
        deaths.sort(key=_by_codename)
    results = []
    for seat, seat_results in record.results:
        if len(seat_results) == 1:  # the usual seat: one result, no comprehension run for it
            results.append((names[seat], [result_json(names, seat_results[0])]))
        else:
            results.append((names[seat], [result_json(names, result) for result in seat_results]))
    results.sort()  # by codename: codenames are distinct, so no two are compared further
    return {
        "day": record.day,
        "tally": dict(tally),
        "recalled": None if record.recalled is None else names[record.recalled],
        "deaths": deaths,
        "rumor": None if record.rumor is None else names[record.rumor.target],
        "results": dict(results),
        "defector_won": record.defector_won,
        "winner": record.winner,
    }


def _by_codename(death: JSON) -> str:
    """A death's sort key in the adjudication: its codename."""
    codename: str = death["codename"]
    return codename


def run_scenario(scenario: Any, *, deadlines: list[State] | None = None) -> tuple[State, JSON]:
    """Play a scenario through the engine: the final state and the adjudication JSON.

    `deadlines`, when given, collects the state just before each Pouch (for benchmarks).
    """
    state = start_scenario(scenario)
    seat_of = {seat.codename: seat.index for seat in state.seats}
    days = scenario.get("days", [])
    if not isinstance(days, list):
        raise ScenarioError("scenario: days must be a list", None)
    for number, spec in enumerate(days, start=1):
        if state.winner is not None:  # S24
            raise ScenarioError(
                f"day {number}: the game ended at Day {state.day}'s Pouch (S24)", "S24"
            )
        saved = usual_saves(state, spec, seat_of)  # nearly every day; else read with care
        if saved is None:
            saved = _check_day(state, number, spec, seat_of)
        if deadlines is not None:
            deadlines.append(with_saves(state, saved))
        # The Pouch, without event payloads nobody reads here, and without a State made for
        # the saves alone: `advance` reads them as they are (the same as `save_day`'s state).
        state = advance(state, saved)
    table = SeatNames(state.seats)  # once a game, not once a Pouch
    adjudication = {
        "days": [_pouch_json(table, record) for record in state.history],
        "winner": state.winner,
        "defector_won": state.defector_won,
    }
    return state, adjudication


def _check_day(state: State, number: int, spec: Any, seat_of: Mapping[str, int]) -> Saved:
    """A day read name by name and checked save by save: what it saved, or why it is refused."""
    try:
        return check_saves(state, parse_day(number, spec, seat_of))
    except BatchRefused as error:
        line = f"day {number}: {_actor(spec, error.index)}: {error.message} ({error.code})"
        raise ScenarioError(line, error.code) from None


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
