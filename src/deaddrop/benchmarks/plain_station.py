"""A plain Station adjudicator: the yardstick `deaddrop station bench` measures the engine by.

Written for the comparison, not for the product: one pass over the scenario JSON with plain
lists and dicts, no immutable states, no events, no audiences, no replayable log. It checks
the same rules as the engine (S1, S3, S8-S11, S21, S24, S31) and resolves the Pouch in S20's
order, so it gives the very same adjudication JSON (tests/benchmarks check this on random
games, and that it refuses every invalid scenario with the engine's rule id). What it may skip
because the adjudication JSON never shows it: the rumor's text (S27: only its target), Final
Cables, claims (scenario whispers carry no text) and done marks.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from deaddrop.engine.station.roles import FACTION, ROLE_TABLE, TARGETING, Faction, Targeting

JSON = dict[str, Any]
ABSTAIN = -1
LAST_DAY = 10


class PlainRefusal(ValueError):
    """An invalid scenario; `rule` is the id of the rule it breaks (None: the format)."""

    def __init__(self, rule: str | None, message: str) -> None:
        super().__init__(f"{message} ({rule})" if rule else message)
        self.rule = rule


def _ring(role: str) -> bool:
    return FACTION[role] is Faction.RING


class _Table:
    """The game as it stands between two Pouches."""

    def __init__(self, players: Any) -> None:
        if not isinstance(players, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
            for p in players
        ):
            raise PlainRefusal(None, "players must be a list of [codename, role] pairs")
        if len(players) not in ROLE_TABLE:
            raise PlainRefusal("S1", "Station needs 6 to 10 players")
        self.names = [name for name, _ in players]
        self.roles = [role for _, role in players]
        if any(not n.isalpha() or n != n.upper() for n in self.names):
            raise PlainRefusal("S3", "a codename is one upper-case word")
        if len(set(self.names)) != len(self.names):
            raise PlainRefusal("S3", "codenames must be distinct")
        if any(r not in FACTION for r in self.roles) or Counter(self.roles) != Counter(
            ROLE_TABLE[len(players)]
        ):
            raise PlainRefusal("S1", "the roles do not match the table")
        self.seat = {name: i for i, name in enumerate(self.names)}
        self.alive = [True] * len(players)
        self.holder: int | None = self.roles.index("ringleader")
        self.last_detained: int | None = None
        self.winner: str | None = None
        self.defector_won = False

    def find(self, name: Any) -> int:
        """The seat of a codename (S3)."""
        seat = self.seat.get(name) if isinstance(name, str) else None
        if seat is None:
            raise PlainRefusal("S3", f"no player is called {name!r}")
        return seat

    def living(self, seat: int, rule: str = "S8") -> int:
        """The seat, if it is a living player (S8)."""
        if not self.alive[seat]:
            raise PlainRefusal(rule, f"{self.names[seat]} is not a living player")
        return seat


def _parse_operation(table: _Table, name: str, spec: Any) -> tuple[int, Any]:
    """(seat, operation): None, ("ability", target) or ("order", target, performer) (S3)."""
    seat = table.find(name)
    if spec is None:
        return seat, None
    if isinstance(spec, dict) and set(spec) == {"target"}:
        return seat, ("ability", table.find(spec["target"]))
    order = spec.get("order") if isinstance(spec, dict) and set(spec) == {"order"} else None
    if not isinstance(order, dict) or set(order) != {"target", "performer"}:
        raise PlainRefusal(None, "an operation is a target, an order or null")
    return seat, ("order", table.find(order["target"]), table.find(order["performer"]))


def _check_operation(table: _Table, day: int, seat: int, operation: Any) -> None:
    """Who an Operation or the Ring order may name (S8-S11)."""
    table.living(seat)
    if operation is None:
        return
    if operation[0] == "ability":
        role, target = table.roles[seat], operation[1]
        if TARGETING[role] is Targeting.NONE:
            raise PlainRefusal("S9", "the Ringleader has no ability of its own")
        table.living(target)
        if TARGETING[role] is Targeting.OTHER and target == seat:
            raise PlainRefusal("S9", "must name another player")
        if role == "interrogator" and target == table.last_detained:
            raise PlainRefusal("S9", "not the player detained yesterday")
        return
    _, target, performer = operation
    if day == 1:
        raise PlainRefusal("S10", "no Ring order on Day 1")
    if seat != table.holder:
        raise PlainRefusal("S10", "only the order-holder files the order")
    if _ring(table.roles[table.living(target)]):
        raise PlainRefusal("S10", "the target must not be a Ring member")
    if not _ring(table.roles[table.living(performer)]):
        raise PlainRefusal("S10", "the performer must be a Ring member")


def _saves(table: _Table, day: int, spec: Any) -> tuple[list[Any], list[int | None], list[Any]]:
    """The day's operations, votes and whispers: every name read first (S3), then each save
    checked in the order it was made."""
    if not isinstance(spec, dict) or set(spec) - {"operations", "votes", "whispers"}:
        raise PlainRefusal(None, f"day {day} is not a day object")
    saved = [_parse_operation(table, name, op) for name, op in _object(spec, "operations").items()]
    cast = [
        (table.find(name), ABSTAIN if choice == "abstain" else table.find(choice))
        for name, choice in _object(spec, "votes").items()
    ]
    pairs = spec.get("whispers", [])
    if not isinstance(pairs, list):
        raise PlainRefusal(None, "whispers must be a list")
    sent_pairs = []
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise PlainRefusal(None, "a whisper is a [sender, recipient] pair")
        sent_pairs.append((table.find(pair[0]), table.find(pair[1])))
    count = len(table.names)
    operations: list[Any] = [None] * count
    for seat, operation in saved:
        _check_operation(table, day, seat, operation)
        operations[seat] = operation
    votes: list[int | None] = [None] * count
    for seat, choice in cast:
        table.living(seat)
        votes[seat] = choice if choice == ABSTAIN else table.living(choice, "S21")
    sent = [0] * count
    for sender, recipient in sent_pairs:
        table.living(sender)
        if sent[sender] == 2:
            raise PlainRefusal("S31", "two whispers a day at most")
        if recipient == sender:
            raise PlainRefusal("S31", "a whisper goes to another player")
        table.living(recipient, "S31")
        sent[sender] += 1
    return operations, votes, sent_pairs


def _object(spec: JSON, key: str) -> JSON:
    value = spec.get(key, {})
    if not isinstance(value, dict):
        raise PlainRefusal(None, f"{key} must be an object")
    return value


class _Night:
    """One Pouch in progress: who does what, and what became of it (S20)."""

    def __init__(self, table: _Table, operations: list[Any]) -> None:
        # 1 lock: the last saved Operation counts; the order becomes the performer's (S7, S12).
        count, alive = len(table.names), table.alive
        self.kind: list[str | None] = [None] * count
        self.target = [-1] * count
        self.order = None
        for seat, op in enumerate(operations):
            if op is None or not alive[seat]:
                continue
            if op[0] == "order":
                self.order = op if seat == table.holder else self.order
            elif alive[op[1]]:
                self.kind[seat], self.target[seat] = table.roles[seat], op[1]
        if self.order is not None:
            self.kind[self.order[2]], self.target[self.order[2]] = "liquidation", self.order[1]
        self.cancelled = [False] * count
        self.detained: int | None = None
        self.interrogator: int | None = None
        self.results: dict[int, list[JSON]] = {}
        self.liquidated: int | None = None

    def cancel(self) -> list[int]:
        """Steps 2 and 3, detain then distract (S14, S15); the seats whose Operation resolves."""
        kind, target, cancelled = self.kind, self.target, self.cancelled
        for seat, role in enumerate(kind):
            if role == "interrogator":
                self.interrogator, self.detained = seat, target[seat]
                cancelled[target[seat]] = kind[target[seat]] is not None
                break
        # S15: decided on the cancellations of step 2.
        honeytraps = [s for s, role in enumerate(kind) if role == "honeytrap" and not cancelled[s]]
        for seat in honeytraps:
            aim = target[seat]
            cancelled[aim] = cancelled[aim] or kind[aim] is not None
        return [s for s, role in enumerate(kind) if role is not None and not cancelled[s]]

    def liquidate(self, names: list[str], acts: list[int]) -> None:
        """Steps 5 and 6: shelter, then the kill unless sheltered or detained (S17, S18)."""
        keepers = [s for s in acts if self.kind[s] == "safehouse_keeper"]
        order = self.order
        if order is None or self.cancelled[order[2]]:
            return
        victim = order[1]
        if victim in {self.target[s] for s in keepers}:
            for keeper in keepers:
                if self.target[keeper] == victim:
                    note = {"kind": "safehouse_needed", "target": names[victim]}
                    self.results.setdefault(keeper, []).append(note)
        elif victim != self.detained:
            self.liquidated = victim


def _readings(
    night: _Night, table: _Table, acts: list[int], whispers: list[tuple[int, int]]
) -> tuple[dict[int, JSON], int | None]:
    """Steps 4, 7 and 8: frames, every information result (S16, S19) and the rumor (S27)."""
    names, roles, kind, target = table.names, table.roles, night.kind, night.target
    framed = {target[s] for s in acts if kind[s] == "forger"}
    acting = set(acts)
    visit = [target[s] if s in acting else None for s in range(len(names))]
    readings: dict[int, JSON] = {}
    rumor = None
    for seat in acts:
        role, aim = kind[seat], target[seat]
        found: JSON = {"kind": role, "target": names[aim]}
        if role == "analyst":
            compromised = aim in framed or (_ring(roles[aim]) and roles[aim] != "ringleader")
            found["reading"] = "COMPROMISED" if compromised else "CLEAR"
        elif role == "watcher":
            found["visitors"] = sorted(
                names[v] for v, went in enumerate(visit) if went == aim and v != seat
            )
        elif role == "shadow":
            went = visit[aim]
            found["visited"] = None if went is None else names[went]
        elif role == "field_agent":
            found["whispers"] = sum((s == aim) + (r == aim) for s, r in whispers)
        else:
            if role == "defector" and rumor is None:
                rumor = aim
            continue
        readings[seat] = found
    return readings, rumor


def _tribunal(alive: list[bool], votes: list[int | None]) -> tuple[dict[int, int], int, int | None]:
    """Step 9: the tally, the abstentions and the recalled player, if any (S7, S21)."""
    living = [s for s, a in enumerate(alive) if a]
    tally: dict[int, int] = {}
    abstain = 0
    for voter in living:
        choice = votes[voter]
        if choice is None or choice == ABSTAIN or not alive[choice]:
            abstain += 1
        else:
            tally[choice] = tally.get(choice, 0) + 1
    if tally:
        top = max(tally.values())
        leaders = [s for s, n in tally.items() if n == top]
        if len(leaders) == 1 and top >= -(-len(living) // 3):
            return tally, abstain, leaders[0]
    return tally, abstain, None


def _burn(table: _Table, day: int, recalled: int | None, liquidated: int | None) -> list[JSON]:
    """Steps 10 and 11: the deaths (S22), then who has won (S24)."""
    names, roles, alive = table.names, table.roles, table.alive
    deaths = []
    for seat in sorted({s for s in (recalled, liquidated) if s is not None}):
        alive[seat] = False
        causes = [c for c, s in (("recalled", recalled), ("liquidated", liquidated)) if s == seat]
        deaths.append({"codename": names[seat], "causes": causes, "faction": FACTION[roles[seat]]})
    ring = sum(1 for s, a in enumerate(alive) if a and _ring(roles[s]))
    if ring == 0:
        table.winner = "station"
    elif ring >= sum(alive) - ring or day >= LAST_DAY:
        table.winner = "ring"
    return sorted(deaths, key=lambda d: d["codename"])


def _pouch(table: _Table, day: int, operations: list[Any], votes: list[Any], whispers: Any) -> JSON:
    """S20, steps 1 to 12, on plain lists; the day in the adjudication format."""
    names, roles, alive = table.names, table.roles, table.alive
    night = _Night(table, operations)
    acts = night.cancel()
    night.liquidate(names, acts)
    readings, rumor = _readings(night, table, acts, whispers)
    tally, abstain, recalled = _tribunal(alive, votes)
    deaths = _burn(table, day, recalled, night.liquidated)
    defector_won = recalled is not None and roles[recalled] == "defector"
    table.defector_won = table.defector_won or defector_won
    # 12 publish: the interrogation chat opens unless either burned or the game ended (S14).
    results, detained, interrogator = night.results, night.detained, night.interrogator
    pair = (interrogator, detained) if table.winner is None else (None, None)
    if pair[0] is not None and pair[1] is not None and alive[pair[0]] and alive[pair[1]]:
        chat = {pair[0]: names[pair[1]], pair[1]: names[pair[0]]}
        for seat, other in chat.items():
            results.setdefault(seat, []).insert(0, {"kind": "interrogation", "with": other})
    for seat, result in readings.items():
        results.setdefault(seat, []).append(result)
    table.last_detained = detained
    if table.holder is not None and not alive[table.holder]:  # S11: the heir
        table.holder = next((s for s, a in enumerate(alive) if a and _ring(roles[s])), None)
    shown: JSON = {names[s]: n for s, n in tally.items()}
    shown["abstain"] = abstain
    return {
        "day": day,
        "tally": dict(sorted(shown.items())),
        "recalled": None if recalled is None else names[recalled],
        "deaths": deaths,
        "rumor": None if rumor is None else names[rumor],
        "results": {names[s]: results[s] for s in sorted(results, key=lambda s: names[s])},
        "defector_won": defector_won,
        "winner": table.winner,
    }


def adjudicate_plain(scenario: Any) -> JSON:
    """The adjudication JSON of a scenario; PlainRefusal when it is invalid."""
    if not isinstance(scenario, dict):
        raise PlainRefusal(None, "the top level must be a JSON object")
    table = _Table(scenario.get("players"))
    days = scenario.get("days", [])
    if not isinstance(days, list):
        raise PlainRefusal(None, "days must be a list")
    out = []
    for day, spec in enumerate(days, start=1):
        if table.winner is not None:
            raise PlainRefusal("S24", "the game is over")
        operations, votes, whispers = _saves(table, day, spec)
        out.append(_pouch(table, day, operations, votes, whispers))
    return {"days": out, "winner": table.winner, "defector_won": table.defector_won}
