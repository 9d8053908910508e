"""The Pouch (S20): the day's resolution as an ordered pipeline of small pure steps."""

from __future__ import annotations

from deaddrop.engine.core.events import Event
from deaddrop.engine.core.records import builder
from deaddrop.engine.station import roles as R
from deaddrop.engine.station.cable import pouch_events
from deaddrop.engine.station.resolution import Resolution, Saved, lock
from deaddrop.engine.station.rumors import draw_rumor
from deaddrop.engine.station.state import (
    ABSTAIN,
    Death,
    PouchRecord,
    Result,
    Rumor,
    State,
    Whisper,
)
from deaddrop.engine.station.victory import check_victory, next_order_holder

_build_result = builder(Result)
_RESULTS: dict[tuple[str, int, object], Result] = {}
"""Each result made so far, made once (as `state.ABILITY_ON`): a record is immutable, so one
is as good as an equal new one. Bounded: six kinds, ten targets, and values from a few
readings, counts or seats (at most every set of visitors a Watcher can see)."""


def _new_result(kind: str, target: int, value: str | int | tuple[int, ...] | None) -> Result:
    """The result of this kind on this target with this value."""
    key = (kind, target, value)
    result = _RESULTS.get(key)
    if result is None:
        result = _RESULTS[key] = _build_result(kind, target, value)
    return result


_new_death = builder(Death)
_SILENT_DEATHS: dict[tuple[int, int, tuple[str, ...]], Death] = {}
"""Each death without a Final Cable made so far, made once, as `_RESULTS`: ten seats, ten
days, three sets of causes at most."""
_new_record = builder(PouchRecord)
_new_state = builder(State)
_NOTHING_SAVED = tuple([(None,) * count for count in range(R.MAX_PLAYERS + 1)])
_NOBODY_DONE = tuple([(False,) * count for count in range(R.MAX_PLAYERS + 1)])
"""A new day's saves and done marks at each table size, made once rather than at each Pouch."""

# Each step fills in its part of the Resolution that `lock` made (see resolution.py for why it
# is mutable); none reads a part a later step fills in. Where a step runs at every Pouch, a
# plain loop rather than a comprehension: Python 3.11 makes a function for each one it runs.


def detain(res: Resolution) -> None:
    """Step 2: the detainee's Operation is cancelled, the liquidation too (S14)."""
    # S14: nothing cancels a detention, so it resolves before every other block.
    for interrogator, target in res.acting(R.INTERROGATOR):
        if res.kinds[target] is not None:
            res.cancelled = frozenset([target])
        res.detained, res.interrogator = target, interrogator
        return


def distract(res: Resolution) -> None:
    """Step 3: the Honeytrap's target loses their Operation, untold (S15)."""
    for _, target in res.acting(R.HONEYTRAP):
        if res.kinds[target] is not None:
            # S15: a distracted Interrogator's Operation is cancelled too (so it is no visit,
            # S13), but its detention already resolved at step 2 and stands.
            res.cancelled = res.cancelled.union([target])
    res.settle()  # no step after this one cancels anything


def frame(res: Resolution) -> None:
    """Step 4: the Forger's target reads COMPROMISED to an Analyst this Pouch (S16)."""
    forgers = res.by_kind.get(R.FORGER)
    if forgers:
        res.framed = frozenset([target for _, target in forgers])


def shelter(res: Resolution) -> None:
    """Step 5: the Keeper's target is protected from liquidation (S17)."""
    keepers = res.by_kind.get(R.SAFEHOUSE_KEEPER)
    if keepers:
        res.sheltered = frozenset([target for _, target in keepers])


def liquidate(res: Resolution) -> None:
    """Step 6: the kill succeeds unless cancelled, or the target is detained or sheltered (S18)."""
    order = res.liquidation
    if order is None or order.performer in res.cancelled:
        return
    target = order.target
    if target in res.sheltered:
        # S18: the Keeper learns their safehouse was needed, also when the target was detained.
        res.notes = tuple(
            [
                (keeper, _new_result("safehouse_needed", target, None))
                for keeper, sheltered in res.by_kind[R.SAFEHOUSE_KEEPER]
                if sheltered == target
            ]
        )
    elif target != res.detained:  # S14: the detainee is protected
        res.liquidated = target


def inform(res: Resolution) -> None:
    """Step 7: Analyst, Watcher, Shadow and Field Agent results from what resolved (S19)."""
    # One pass over the kinds that acted, not a lookup per information role: most Pouches
    # have few of them. S19: a cancelled Operation produces nothing at all. A seat acts once,
    # so each seat has one reading at most and their order here does not matter.
    readings = res.readings
    visits: list[int | None] | None = None
    for kind, pairs in res.by_kind.items():
        if kind not in _INFORMATION:
            continue
        for seat, target in pairs:
            value: object
            if kind == R.ANALYST:
                value = _reading(res, target)
            elif kind == R.FIELD_AGENT:  # S19: whispers sent plus received that day
                value = _whispers_of(res.whispers, target)
            else:
                visits = _visits(res) if visits is None else visits
                # Shadow: whom the target visited (None: home); Watcher: who visited the target.
                value = visits[target] if kind == R.SHADOW else _visitors(res, visits, seat, target)
            readings.append((seat, _new_result(kind, target, value)))


def _whispers_of(whispers: tuple[Whisper, ...], seat: int) -> int:
    """S19: the whispers a seat sent plus those it received that day."""
    count = 0
    for whisper in whispers:
        count += (whisper.sender == seat) + (whisper.recipient == seat)
    return count


_INFORMATION = frozenset({R.ANALYST, R.WATCHER, R.SHADOW, R.FIELD_AGENT})
"""The roles whose Operation gives a private reading (S19)."""


def _visitors(
    res: Resolution, visits: list[int | None], watcher: int, target: int
) -> tuple[int, ...]:
    """S19: everyone whose visit reached the target, the Watcher left out, by codename."""
    visitors = [v for v, dest in enumerate(visits) if dest == target and v != watcher]
    if len(visitors) < 2:
        return tuple(visitors)
    seats = res.state.seats
    return tuple(sorted(visitors, key=lambda visitor: seats[visitor].codename))


def _visits(res: Resolution) -> list[int | None]:
    """Per seat, whom its Operation visited, if it resolved (S13: a cancelled one is none)."""
    visits: list[int | None] = [None] * len(res.kinds)
    for pairs in res.by_kind.values():
        for seat, target in pairs:
            visits[seat] = target
    return visits


def _reading(res: Resolution, target: int) -> str:
    """S16, S19: framed → COMPROMISED; Ring but not the Ringleader → COMPROMISED; else CLEAR."""
    if target in res.framed:
        return "COMPROMISED"
    role = res.state.seats[target].role
    if role in R.RING_ROLES and role != R.RINGLEADER:
        return "COMPROMISED"
    return "CLEAR"


def spread_rumor(res: Resolution) -> None:
    """Step 8: a Defector rumor that resolved adds a flavour line to the Cable (S27)."""
    for _, target in res.by_kind.get(R.DEFECTOR, ()):
        text, res.rng = draw_rumor(res.rng, res.state.seats[target].codename)
        res.rumor = Rumor(target, text)
        return


def tribunal(res: Resolution) -> None:
    """Step 9: the unique leader with at least ceil(L/3) votes is recalled (S21)."""
    votes, alive, living = res.votes, res.state.alive, res.living
    counts = [0] * len(alive)  # per seat: a list, counted and searched by builtins
    for voter in living:
        choice = votes[voter]
        # S7: no saved vote is Abstain; S21: Abstain never leads.
        if choice is not None and choice != ABSTAIN and alive[choice]:
            counts[choice] += 1
    cast = sum(counts)
    res.threshold = threshold = tribunal_threshold(len(living))
    top = max(counts)
    # S21: a unique leader with at least the threshold; a tie at the top recalls nobody.
    if top and top >= threshold and counts.count(top) == 1:
        res.recalled = counts.index(top)
    res.abstain = len(living) - cast
    tally = []
    for seat, votes_for in enumerate(counts):
        if votes_for:
            tally.append((seat, votes_for))
    res.tally = tuple(tally)


def tribunal_threshold(living: int) -> int:
    """S21: ceil(L / 3) votes for L living players."""
    return -(-living // 3)


def apply_deaths(res: Resolution) -> None:
    """Step 10: recalled and liquidated die together, once each with every cause (S22)."""
    recalled, liquidated = res.recalled, res.liquidated
    if recalled is None and liquidated is None:
        return  # nobody dies: `alive` stays as locked
    state = res.state
    alive = list(res.alive)
    deaths = []
    burned = [who for who in (recalled, liquidated) if who is not None]
    for seat in sorted(set(burned)) if len(burned) > 1 else burned:
        causes = ("recalled",) * (seat == recalled) + ("liquidated",) * (seat == liquidated)
        cable = state.final_cables[seat]
        key = (seat, state.day, causes)
        death = None if cable else _SILENT_DEATHS.get(key)
        if death is None:
            death = _new_death(seat, state.day, causes, cable)
            if not cable:
                _SILENT_DEATHS[key] = death
        deaths.append(death)
        alive[seat] = False
    res.deaths, res.alive = tuple(deaths), tuple(alive)


def check_win(res: Resolution) -> None:
    """Step 11: Station, then Ring parity, then the Day 10 timeout (S24)."""
    res.winner = check_victory(res.state.seats, res.alive, last_pouch=res.state.day >= R.LAST_DAY)


def resolve_pouch(state: State) -> tuple[State, tuple[Event, ...]]:
    """Resolve the day at its deadline: the next state and every event with its audience."""
    new_state = advance(state)
    return new_state, pouch_events(new_state, new_state.history[-1])


def advance(state: State, saved: Saved | None = None) -> State:
    """Steps 1–12 without building event payloads: the adjudicator's fast path.

    `saved`: the day's saves when they are not in `state` yet (`saves.check_saves`), so that
    a scenario's day makes no State between its saves and its Pouch.
    """
    # Step 1 is `lock`, steps 2-11 below in S20's order, step 12 `publish`. Each called at
    # its own line: one loop over the steps would be one call site for ten functions, which
    # the interpreter cannot specialize, and this runs at every Pouch.
    res = lock(state, saved)
    detain(res)
    distract(res)
    frame(res)
    shelter(res)
    liquidate(res)
    inform(res)
    spread_rumor(res)
    tribunal(res)
    apply_deaths(res)
    check_win(res)
    return publish(res)


def private_results(
    res: Resolution, interrogation: tuple[int, int] | None
) -> tuple[tuple[int, tuple[Result, ...]], ...]:
    """Per seat: interrogation, then safehouse_needed, then the role result (S14, S18, S19)."""
    if interrogation is None and not res.notes:  # the usual Pouch: one reading a seat at most
        usual = []
        for seat, result in res.readings:
            usual.append((seat, (result,)))
        usual.sort()
        return tuple(usual)
    by_seat: dict[int, list[Result]] = {}
    if interrogation is not None:
        interrogator, detainee = interrogation
        by_seat.setdefault(interrogator, []).append(_new_result("interrogation", detainee, None))
        by_seat.setdefault(detainee, []).append(_new_result("interrogation", interrogator, None))
    for seat, result in [*res.notes, *res.readings]:
        by_seat.setdefault(seat, []).append(result)
    return tuple([(seat, tuple(results)) for seat, results in sorted(by_seat.items())])


def _interrogation(res: Resolution) -> tuple[int, int] | None:
    """(Interrogator, detainee) when the chat opens: unless either burned this Pouch (S14)."""
    interrogator, detainee = res.interrogator, res.detained
    if interrogator is None or detainee is None:
        return None
    if res.alive[interrogator] and res.alive[detainee]:
        return interrogator, detainee
    return None


def publish(res: Resolution) -> State:
    """Step 12: record the Pouch for the Morning Cable and start the next day (S6, S23)."""
    state = res.state
    over = res.winner is not None
    interrogation = None if over else _interrogation(res)
    count = len(state.seats)
    holder = None if over else next_order_holder(state.seats, res.alive, state.order_holder)
    # By position, each field named beside it: binding 19 keywords costs more than the record.
    record = _new_record(
        state.day,  # day
        res.operations,  # operations
        state.order_holder,  # order_holder
        res.liquidation,  # liquidation
        res.cancelled,  # cancelled
        res.detained,  # detained
        interrogation,  # interrogation
        res.living,  # living
        res.votes,  # votes
        res.tally,  # tally
        res.abstain,  # abstain
        res.threshold,  # threshold
        res.recalled,  # recalled
        res.deaths,  # deaths
        res.rumor,  # rumor
        private_results(res, interrogation),  # results
        res.whispers,  # whispers
        res.recalled is not None and state.seats[res.recalled].role == R.DEFECTOR,  # defector_won
        res.winner,  # winner
    )
    return _new_state(
        state.seats,  # seats
        state.seed,  # seed
        res.rng,  # rng
        state.day if over else state.day + 1,  # day
        res.alive,  # alive
        _NOTHING_SAVED[count],  # operations
        _NOTHING_SAVED[count],  # votes
        (),  # whispers
        state.final_cables,  # final_cables
        _NOBODY_DONE[count],  # done
        holder,  # order_holder
        res.detained,  # last_detained
        interrogation,  # interrogation
        (*state.history, record),  # history
        state.deaths + res.deaths,  # deaths
        res.winner,  # winner
    )
