"""The Pouch (S20): the day's resolution as an ordered pipeline of small pure steps."""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress

from deaddrop.engine.core.events import Event
from deaddrop.engine.core.records import evolve
from deaddrop.engine.station import roles as R
from deaddrop.engine.station.cable import pouch_events
from deaddrop.engine.station.resolution import LIQUIDATION, Act, Resolution
from deaddrop.engine.station.rumors import draw_rumor
from deaddrop.engine.station.state import (
    ABSTAIN,
    Death,
    Order,
    PouchRecord,
    Result,
    Rumor,
    State,
)
from deaddrop.engine.station.victory import check_victory, next_order_holder


def lock(state: State) -> Resolution:
    """Step 1: the last saved Operations count (S7); the order becomes the performer's (S12)."""
    seats, alive = state.seats, state.alive
    acts: list[Act | None] = [None] * len(seats)
    liquidation: Order | None = None
    for seat, operation in enumerate(state.operations):
        if operation is None or not alive[seat]:
            continue
        if isinstance(operation, Order):
            if seat == state.order_holder and _order_stands(state, operation):
                liquidation = operation
            continue  # S12: the order itself is not a visit
        if alive[operation.target]:  # S8, S40: a target removed since saving drops out
            acts[seat] = (seats[seat].role, operation.target)
    if liquidation is not None:
        # S12: the liquidation replaces whatever the performer had queued.
        acts[liquidation.performer] = (LIQUIDATION, liquidation.target)
    grouped: dict[str, list[tuple[int, int]]] = {}
    for seat, act in enumerate(acts):
        if act is not None:
            grouped.setdefault(act[0], []).append((seat, act[1]))
    by_kind = {kind: tuple(pairs) for kind, pairs in grouped.items()}
    living = tuple(compress(range(len(alive)), alive))
    return Resolution(state, tuple(acts), by_kind, liquidation, alive=state.alive, living=living)


def _order_stands(state: State, order: Order) -> bool:
    """An order still valid at lock: day 2 on, living non-Ring target, living Ring performer."""
    alive, seats = state.alive, state.seats
    return (
        state.day >= 2
        and alive[order.target]
        and alive[order.performer]
        and seats[order.target].role not in R.RING_ROLES
        and seats[order.performer].role in R.RING_ROLES
    )


def detain(res: Resolution) -> Resolution:
    """Step 2: the detainee's Operation is cancelled, the liquidation too (S14)."""
    # S14: nothing cancels a detention, so it resolves before every other block.
    for interrogator, target in res.acting(R.INTERROGATOR):
        cancelled = res.cancelled | {target} if res.acts[target] is not None else res.cancelled
        return res.but(detained=target, interrogator=interrogator, cancelled=cancelled)
    return res


def distract(res: Resolution) -> Resolution:
    """Step 3: the Honeytrap's target loses their Operation, untold (S15)."""
    cancelled = res.cancelled
    for _, target in res.acting(R.HONEYTRAP):
        if res.acts[target] is not None:
            # S15: a distracted Interrogator's Operation is cancelled too (so it is no visit,
            # S13), but its detention already resolved at step 2 and stands.
            cancelled = cancelled | {target}
    return res if cancelled is res.cancelled else res.but(cancelled=cancelled)


def frame(res: Resolution) -> Resolution:
    """Step 4: the Forger's target reads COMPROMISED to an Analyst this Pouch (S16)."""
    framed = frozenset([target for _, target in res.acting(R.FORGER)])
    return res.but(framed=framed) if framed else res


def shelter(res: Resolution) -> Resolution:
    """Step 5: the Keeper's target is protected from liquidation (S17)."""
    sheltered = frozenset([target for _, target in res.acting(R.SAFEHOUSE_KEEPER)])
    return res.but(sheltered=sheltered) if sheltered else res


def liquidate(res: Resolution) -> Resolution:
    """Step 6: the kill succeeds unless cancelled, or the target is detained or sheltered (S18)."""
    order = res.liquidation
    if order is None or order.performer in res.cancelled:
        return res
    target = order.target
    if target in res.sheltered:
        # S18: the Keeper learns their safehouse was needed, also when the target was detained.
        notes = tuple(
            (keeper, Result("safehouse_needed", target))
            for keeper, sheltered in res.acting(R.SAFEHOUSE_KEEPER)
            if sheltered == target
        )
        return res.but(notes=res.notes + notes)
    if target == res.detained:  # S14: the detainee is protected
        return res
    return res.but(liquidated=target)


def inform(res: Resolution) -> Resolution:
    """Step 7: Analyst, Watcher, Shadow and Field Agent results from what resolved (S19)."""
    # S19: `acting` leaves out cancelled Operations: they produce nothing at all. A seat acts
    # once, so each seat has one reading at most and their order here does not matter.
    readings = [
        (seat, Result(R.ANALYST, target, _reading(res, target)))
        for seat, target in res.acting(R.ANALYST)
    ]
    watchers, shadows = res.acting(R.WATCHER), res.acting(R.SHADOW)
    if watchers or shadows:
        visits = _visits(res)
        codename = [seat.codename for seat in res.state.seats]
        for seat, target in watchers:
            # S19: everyone whose visit reached the target, the Watcher left out.
            visitors = [v for v, dest in enumerate(visits) if dest == target and v != seat]
            visitors.sort(key=codename.__getitem__)
            readings.append((seat, Result(R.WATCHER, target, tuple(visitors))))
        for seat, target in shadows:
            readings.append((seat, Result(R.SHADOW, target, visits[target])))  # None: home
    agents = res.acting(R.FIELD_AGENT)
    if agents:
        whispers = res.state.whispers
        ends = [w.sender for w in whispers] + [w.recipient for w in whispers]
        for seat, target in agents:  # S19: whispers sent plus received that day
            readings.append((seat, Result(R.FIELD_AGENT, target, ends.count(target))))
    return res.but(readings=tuple(readings)) if readings else res


def _visits(res: Resolution) -> list[int | None]:
    """Per seat, whom its Operation visited, if it resolved (S13: a cancelled one is none)."""
    cancelled = res.cancelled
    return [
        None if act is None or seat in cancelled else act[1] for seat, act in enumerate(res.acts)
    ]


def _reading(res: Resolution, target: int) -> str:
    """S16, S19: framed → COMPROMISED; Ring but not the Ringleader → COMPROMISED; else CLEAR."""
    if target in res.framed:
        return "COMPROMISED"
    role = res.state.seats[target].role
    if role in R.RING_ROLES and role != R.RINGLEADER:
        return "COMPROMISED"
    return "CLEAR"


def spread_rumor(res: Resolution) -> Resolution:
    """Step 8: a Defector rumor that resolved adds a flavour line to the Cable (S27)."""
    for _, target in res.acting(R.DEFECTOR):
        text, rng = draw_rumor(res.state.rng, res.state.seats[target].codename)
        return res.but(rumor=Rumor(target, text), rng=rng)
    return res


def tribunal(res: Resolution) -> Resolution:
    """Step 9: the unique leader with at least ceil(L/3) votes is recalled (S21)."""
    state = res.state
    living = res.living
    counts: dict[int, int] = {}
    abstain = 0
    for voter in living:
        choice = state.votes[voter]
        if choice is None or choice == ABSTAIN or not state.alive[choice]:
            abstain += 1  # S7: no saved vote is Abstain; S21: Abstain never leads
        else:
            counts[choice] = counts.get(choice, 0) + 1
    threshold = tribunal_threshold(len(living))
    recalled = None
    if counts:
        top = max(counts.values())
        leaders = [seat for seat, n in counts.items() if n == top]
        if len(leaders) == 1 and top >= threshold:
            recalled = leaders[0]
    return res.but(
        tally=tuple(sorted(counts.items())),
        abstain=abstain,
        threshold=threshold,
        recalled=recalled,
    )


def tribunal_threshold(living: int) -> int:
    """S21: ceil(L / 3) votes for L living players."""
    return -(-living // 3)


def apply_deaths(res: Resolution) -> Resolution:
    """Step 10: recalled and liquidated die together, once each with every cause (S22)."""
    state = res.state
    if res.recalled is None and res.liquidated is None:
        return res  # nobody dies: `alive` stays as locked
    blamed = (("recalled", res.recalled), ("liquidated", res.liquidated))
    alive = list(res.alive)
    deaths = []
    for seat in sorted({who for _, who in blamed if who is not None}):
        causes = tuple([cause for cause, who in blamed if who == seat])
        deaths.append(Death(seat, state.day, causes, state.final_cables[seat]))
        alive[seat] = False
    return res.but(deaths=tuple(deaths), alive=tuple(alive))


def check_win(res: Resolution) -> Resolution:
    """Step 11: Station, then Ring parity, then the Day 10 timeout (S24)."""
    winner = check_victory(res.state.seats, res.alive, last_pouch=res.state.day >= R.LAST_DAY)
    return res.but(winner=winner) if winner else res


STEPS: tuple[Callable[[Resolution], Resolution], ...] = (
    detain,
    distract,
    frame,
    shelter,
    liquidate,
    inform,
    spread_rumor,
    tribunal,
    apply_deaths,
    check_win,
)
"""Steps 2–11 of S20, in order; step 1 is `lock`, step 12 is `publish`."""


def resolve_pouch(state: State) -> tuple[State, tuple[Event, ...]]:
    """Resolve the day at its deadline: the next state and every event with its audience."""
    new_state = advance(state)
    return new_state, pouch_events(new_state, new_state.history[-1])


def advance(state: State) -> State:
    """Steps 1–12 without building event payloads: the adjudicator's fast path."""
    res = lock(state)
    for step in STEPS:
        res = step(res)
    return publish(res)


def private_results(
    res: Resolution, interrogation: tuple[int, int] | None
) -> tuple[tuple[int, tuple[Result, ...]], ...]:
    """Per seat: interrogation, then safehouse_needed, then the role result (S14, S18, S19)."""
    if interrogation is None and not res.notes and not res.readings:
        return ()
    by_seat: dict[int, list[Result]] = {}
    if interrogation is not None:
        interrogator, detainee = interrogation
        by_seat.setdefault(interrogator, []).append(Result("interrogation", detainee))
        by_seat.setdefault(detainee, []).append(Result("interrogation", interrogator))
    for seat, result in res.notes + res.readings:
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
    record = PouchRecord(
        day=state.day,
        operations=state.operations,
        order_holder=state.order_holder,
        liquidation=res.liquidation,
        cancelled=res.cancelled,
        detained=res.detained,
        interrogation=interrogation,
        living=res.living,
        votes=state.votes,
        tally=res.tally,
        abstain=res.abstain,
        threshold=res.threshold,
        recalled=res.recalled,
        deaths=res.deaths,
        rumor=res.rumor,
        results=private_results(res, interrogation),
        whispers=state.whispers,
        defector_won=res.recalled is not None and state.seats[res.recalled].role == R.DEFECTOR,
        winner=res.winner,
    )
    count = len(state.seats)
    new_state = evolve(
        state,
        rng=res.rng or state.rng,
        day=state.day if over else state.day + 1,
        alive=res.alive,
        operations=(None,) * count,
        votes=(None,) * count,
        whispers=(),
        done=(False,) * count,
        order_holder=None
        if over
        else next_order_holder(state.seats, res.alive, state.order_holder),
        last_detained=res.detained,
        interrogation=interrogation,
        history=(*state.history, record),
        deaths=state.deaths + res.deaths,
        winner=res.winner,
    )
    return new_state
