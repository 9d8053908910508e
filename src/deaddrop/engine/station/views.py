"""`view(state, viewer)`: the only way anything leaves the engine for a person or a bot.

Deny by default: every field is added by a line that says who may see it (S5, S10, S19,
S21, S23, S26, S31). A viewer is a seat (living or burned) or None for a spectator.
"""

from __future__ import annotations

from typing import Any

from deaddrop.engine.station.cable import cable_json, result_json, reveal_json, vote_json
from deaddrop.engine.station.game import operation_json
from deaddrop.engine.station.options import operation_options
from deaddrop.engine.station.pouch import tribunal_threshold
from deaddrop.engine.station.roles import TEXT_LIMIT, is_ring
from deaddrop.engine.station.state import Operation, Order, State, Whisper

JSON = dict[str, Any]


def view(state: State, viewer: int | None) -> JSON:
    """What this viewer may see now; None is a spectator (public things only)."""
    seats = state.seats
    out: JSON = {
        "day": state.day,
        "over": state.over,
        "winner": state.winner,
        "defector_won": state.defector_won,
        "roster": [_roster_entry(state, seat.index) for seat in seats],  # public (S23)
        "cables": [cable_json(seats, record) for record in state.history],  # public (S23)
        "threshold": tribunal_threshold(len(state.living())),  # public: what recalls (S21)
        "votes": [  # public and live (S21)
            {"voter": seats[s].codename, "vote": vote_json(seats, state.votes[s])}
            for s in state.living()
        ],
        "done": [  # public: who is done for the day (S41)
            seats[s].codename for s in state.living() if state.done[s]
        ],
        "whispers_announced": [  # public: who whispered to whom (S31)
            {
                "day": w.day,
                "sender": seats[w.sender].codename,
                "recipient": seats[w.recipient].codename,
            }
            for w in _all_whispers(state)
        ],
    }
    if state.over:
        out["reveal"] = reveal_json(state)  # S26: every role, once the game is over
    if viewer is None:
        return out
    out["me"] = _own(state, viewer)  # the seat's own secrets
    if is_ring(seats[viewer].role):
        out["ring"] = _ring(state, viewer)  # S5, S10: Ring members only
    if state.over:
        out["history"] = full_history(state)  # S26: the game's players see everything
    return out


def _roster_entry(state: State, seat: int) -> JSON:
    """A codename, living or burned with cause and faction (S23); role only after S26."""
    codename = state.seats[seat].codename
    entry: JSON = {"codename": codename, "alive": state.alive[seat], "death": None}
    death = state.death_of(seat)
    if death is not None:
        entry["death"] = {
            "day": death.day,
            "causes": list(death.causes),
            "faction": state.seats[seat].faction.value,
            "final_cable": death.final_cable,  # S23, S32: published with the death
        }
    if state.over:
        entry["role"] = state.seats[seat].role
    return entry


def _all_whispers(state: State) -> list[Whisper]:
    """Every whisper of the game so far, in order."""
    earlier = [w for record in state.history for w in record.whispers]
    return earlier + list(state.whispers)


def _own(state: State, seat: int) -> JSON:
    """The viewer's own role, submission, results, whispers and Final Cable."""
    seats = state.seats
    me = seats[seat]
    codenames = [s.codename for s in seats]
    options = operation_options(state, seat)
    interrogations = [
        {"day": record.day, "with": result_json(codenames, r)["with"]}
        for record in state.history
        for s, results in record.results
        if s == seat
        for r in results
        if r.kind == "interrogation"
    ]
    open_chat = state.interrogation
    return {
        "codename": me.codename,
        "role": me.role,
        "faction": me.faction.value,
        "alive": state.alive[seat],
        "operation": operation_json(state, state.operations[seat]),
        "vote": vote_json(seats, state.votes[seat]),
        "final_cable": state.final_cables[seat],
        "final_cable_limit": TEXT_LIMIT,
        "results": [
            {"day": record.day, "results": [result_json(codenames, r) for r in results]}
            for record in state.history
            for s, results in record.results
            if s == seat  # S19: a private result is for its own seat alone
        ],
        "whispers": [
            _whisper_json(state, w)
            for w in _all_whispers(state)
            if seat in (w.sender, w.recipient)  # S31: the text only for the two
        ],
        "interrogations": interrogations,  # S14: both keep read access to its history
        "interrogation_open_with": (
            seats[open_chat[1] if open_chat[0] == seat else open_chat[0]].codename
            if open_chat is not None and seat in open_chat
            else None
        ),
        "options": {
            "ability_targets": _codenames(state, options.ability_targets),
            "order_targets": _codenames(state, options.order_targets),
            "order_performers": _codenames(state, options.order_performers),
            "vote_choices": _codenames(state, options.vote_choices),
            "whisper_recipients": _codenames(state, options.whisper_recipients),
        },
    }


def _codenames(state: State, group: tuple[int, ...]) -> list[str]:
    """The codenames of some seats."""
    return [state.seats[s].codename for s in group]


def _ring(state: State, seat: int) -> JSON:
    """S5: Ring members see each other's codenames and roles; S10: the living see the order."""
    seats = state.seats
    ring: JSON = {
        "members": [
            {"codename": s.codename, "role": s.role, "alive": state.alive[s.index]}
            for s in seats
            if is_ring(s.role)
        ],
        "orders": _past_orders(state, seat),
    }
    if state.alive[seat] and not state.over:
        holder = state.order_holder
        ring["order_holder"] = None if holder is None else seats[holder].codename
        current = state.operations[holder] if holder is not None else None
        ring["order"] = operation_json(state, current) if isinstance(current, Order) else None
    return ring


def _past_orders(state: State, seat: int) -> list[JSON]:
    """S10: the orders this Ring member saw filed, each as it stood at its day's Pouch.

    A member sees the current order only while alive, so a burned one keeps the orders of the
    days it lived through (its last is the day of the Pouch that burned it, S22).
    """
    death = state.death_of(seat)
    last_day = death.day if death is not None else state.day
    orders = []
    for record in state.history:
        holder = record.order_holder
        filed = record.operations[holder] if holder is not None else None
        if isinstance(filed, Order) and record.day <= last_day:
            target, performer = state.seats[filed.target], state.seats[filed.performer]
            orders.append(
                {"day": record.day, "target": target.codename, "performer": performer.codename}
            )
    return orders


def full_history(state: State) -> list[JSON]:
    """Every Operation, result and whisper of every day: for players after the game (S26)."""
    seats = state.seats
    codenames = [seat.codename for seat in seats]
    days: list[JSON] = [
        {
            "day": record.day,
            "operations": _operations_json(state, record.operations),
            "cancelled": sorted(seats[s].codename for s in record.cancelled),
            "results": {
                codenames[s]: [result_json(codenames, r) for r in results]
                for s, results in record.results
            },
            "whispers": [_whisper_json(state, w) for w in record.whispers],
        }
        for record in state.history
    ]
    if not state.history or state.history[-1].day != state.day:
        # A host removal ended the game mid-day (S40): that day's saves are history too.
        days.append(
            {
                "day": state.day,
                "operations": _operations_json(state, state.operations),
                "cancelled": [],
                "results": {},
                "whispers": [_whisper_json(state, w) for w in state.whispers],
            }
        )
    return days


def _operations_json(state: State, operations: tuple[Operation | None, ...]) -> JSON:
    """Saved Operations by codename."""
    return {
        state.seats[s].codename: operation_json(state, op)
        for s, op in enumerate(operations)
        if op is not None
    }


def _whisper_json(state: State, whisper: Whisper) -> JSON:
    """A whisper with its text: only for its two parties, or everyone after the game."""
    seats = state.seats
    return {
        "day": whisper.day,
        "sender": seats[whisper.sender].codename,
        "recipient": seats[whisper.recipient].codename,
        "text": whisper.text,
    }
