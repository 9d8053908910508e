"""Who has won (S24), and who holds the Ring order next (S11)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from deaddrop.engine.station.roles import RING_ROLES
from deaddrop.engine.station.state import Seat

STATION = "station"
RING = "ring"


def check_victory(seats: Sequence[Seat], alive: Sequence[bool], *, last_pouch: bool) -> str | None:
    """S24, in order: no living Ring → station; Ring ≥ the others → ring; Day 10 → ring."""
    if len(seats) != len(alive):
        raise ValueError("one alive flag a seat")
    ring = others = 0
    for seat in compress(seats, alive):
        if seat.role in RING_ROLES:
            ring += 1
        else:
            others += 1  # S24: a living Defector counts among the others
    if ring == 0:
        return STATION
    if ring >= others:
        return RING
    if last_pouch:
        return RING
    return None


def next_order_holder(
    seats: Sequence[Seat], alive: Sequence[bool], holder: int | None
) -> int | None:
    """S11: a living holder keeps the order; else the earliest-joined surviving Ring member."""
    if holder is not None and alive[holder]:
        return holder
    for seat in seats:
        if alive[seat.index] and seat.role in RING_ROLES:
            return seat.index
    return None
