"""What a seat may save today: the legal targets of its ability and of the Ring order."""

from __future__ import annotations

from deaddrop.engine.core.records import record
from deaddrop.engine.station.roles import INTERROGATOR, TARGETING, Targeting, is_ring
from deaddrop.engine.station.state import State


@record
class OperationOptions:
    """The legal choices of one seat for today's Operation."""

    ability_targets: tuple[int, ...]
    """Seats its own role may name (S9); empty when it has no ability."""
    order_targets: tuple[int, ...]
    """Seats the Ring order may name, when this seat may file one (S10, S11)."""
    order_performers: tuple[int, ...]
    """Seats that may perform that order (S10)."""
    vote_choices: tuple[int, ...]
    """Seats this seat may vote for; Abstain is always open (S21)."""
    whisper_recipients: tuple[int, ...]
    """Seats it may whisper to now; empty once two are sent (S31)."""


NONE = OperationOptions((), (), (), (), ())


def operation_options(state: State, seat: int) -> OperationOptions:
    """Every legal target for this seat today; nothing for the burned or after the game."""
    if state.over or not state.alive[seat]:
        return NONE
    living = tuple(state.living())
    role = state.seats[seat].role
    targeting = TARGETING[role]
    if targeting is Targeting.NONE:
        ability: tuple[int, ...] = ()
    elif targeting is Targeting.ANY:
        ability = living
    else:
        ability = tuple(s for s in living if s != seat)
    if role == INTERROGATOR:  # S9: not the same detainee two Pouches running
        ability = tuple(s for s in ability if s != state.last_detained)
    order_targets: tuple[int, ...] = ()
    performers: tuple[int, ...] = ()
    if state.day >= 2 and seat == state.order_holder:  # S10, S11
        order_targets = tuple(s for s in living if not is_ring(state.seats[s].role))
        performers = tuple(s for s in living if is_ring(state.seats[s].role))
    sent = sum(1 for w in state.whispers if w.sender == seat)
    recipients = tuple(s for s in living if s != seat) if sent < 2 else ()
    return OperationOptions(ability, order_targets, performers, living, recipients)
