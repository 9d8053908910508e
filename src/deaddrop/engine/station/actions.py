"""What a player (or the host) may do during a day, each checked against the rules."""

from __future__ import annotations

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.records import record
from deaddrop.engine.station.roles import (
    INTERROGATOR,
    RING_ROLES,
    TARGETING,
    TEXT_LIMIT,
    WHISPERS_PER_DAY,
    Targeting,
)
from deaddrop.engine.station.state import ABSTAIN, State


@record
class SaveOperation:
    """Queue (or change to) one's own role ability aimed at a target (S9)."""

    seat: int
    target: int


@record
class SaveOrder:
    """The order-holder files the Ring order (S10, S11)."""

    seat: int
    target: int
    performer: int


@record
class WithdrawOperation:
    """Go back to No action (S7)."""

    seat: int


@record
class CastVote:
    """Vote for a living player, oneself included, or ABSTAIN (S21)."""

    seat: int
    choice: int


@record
class WithdrawVote:
    """Take a vote back; it counts as Abstain (S7)."""

    seat: int


@record
class SendWhisper:
    """A private message to another living player, two a day (S31)."""

    seat: int
    recipient: int
    text: str = ""


@record
class EditFinalCable:
    """Replace one's Final Cable (S32)."""

    seat: int
    text: str


@record
class MarkDone:
    """Say one is done (or not) for the day; when all living are, an early Pouch may leave (S41)."""

    seat: int
    done: bool = True


@record
class ResolvePouch:
    """The deadline has come: resolve the day (S20)."""


@record
class RemovePlayer:
    """The host removes a player without replacement: burned at once (S40)."""

    seat: int


DayAction = (
    SaveOperation | SaveOrder | WithdrawOperation | CastVote | WithdrawVote | SendWhisper | MarkDone
)
"""What a living player may save during the day (`game.apply_day` takes a batch of them)."""
Action = DayAction | EditFinalCable | ResolvePouch | RemovePlayer


def check_open(state: State) -> None:
    """Refuse anything once the game is over (S24)."""
    if state.winner is not None:  # `state.over`, without a property call on every save
        raise IllegalAction("S24", "the game is over")


def check_actor(state: State, seat: int) -> None:
    """Only living players act (S8)."""
    alive = state.alive
    if state.winner is None and 0 <= seat < len(alive) and alive[seat]:
        return  # every save passes here: the usual answer in one test
    check_open(state)
    if not 0 <= seat < len(alive):
        raise IllegalAction("S8", f"there is no seat {seat}")
    raise IllegalAction("S8", "a burned player can no longer act")


def check_living(state: State, target: int, rule: str = "S8") -> None:
    """Every target must be a living player when it is saved (S8)."""
    alive = state.alive
    if 0 <= target < len(alive) and alive[target]:
        return
    if not 0 <= target < len(alive):
        raise IllegalAction(rule, f"there is no seat {target}")
    raise IllegalAction(rule, f"{state.seats[target].codename} is not a living player")


ABILITY_ROLES = frozenset([role for role, aim in TARGETING.items() if aim is not Targeting.NONE])
"""The roles with an ability of their own: all but the Ringleader (S9)."""
SELF_AIMING_ROLES = frozenset([role for role, aim in TARGETING.items() if aim is Targeting.ANY])
"""The roles whose ability may name their own player (S9).

Both read once, for a membership test: an Enum member read from its class (`Targeting.NONE`)
costs as much as the rest of a save's checks together."""


def check_ability(state: State, action: SaveOperation) -> None:
    """A role's own Operation: who it may name (S9)."""
    check_ability_at(state, action.seat, action.target)


def check_ability_at(state: State, seat: int, target: int) -> None:
    """A role's own Operation by `seat` on `target`: who it may name (S9)."""
    # Each check below tests the usual case inline and calls check_actor or check_living only
    # to say why it failed: a scenario's day runs these for every save.
    alive = state.alive
    if state.winner is not None or not (0 <= seat < len(alive) and alive[seat]):
        check_actor(state, seat)
    role = state.seats[seat].role
    if role not in ABILITY_ROLES:
        raise IllegalAction("S9", "the Ringleader has no ability of its own; file the Ring order")
    if not (0 <= target < len(alive) and alive[target]):
        check_living(state, target)
    if target == seat and role not in SELF_AIMING_ROLES:
        raise IllegalAction("S9", f"the {role.replace('_', ' ')} must name another player")
    if role == INTERROGATOR and target == state.last_detained:
        # S9: not the player this Interrogator detained at the previous Pouch.
        raise IllegalAction(
            "S9", f"{state.seats[target].codename} was detained yesterday; not twice running"
        )


def check_order(state: State, action: SaveOrder) -> None:
    """The Ring order: from Day 2, by the order-holder, non-Ring target, Ring performer (S10)."""
    check_order_at(state, action.seat, action.target, action.performer)


def check_order_at(state: State, seat: int, target: int, performer: int) -> None:
    """The Ring order `seat` files on `target`, carried out by `performer` (S10)."""
    alive = state.alive
    if state.winner is not None or not (0 <= seat < len(alive) and alive[seat]):
        check_actor(state, seat)
    if state.day == 1:
        raise IllegalAction("S10", "no Ring order on Day 1")
    if seat != state.order_holder:
        raise IllegalAction("S10", "only the order-holder can file the Ring order")
    check_living(state, target)
    if state.seats[target].role in RING_ROLES:
        raise IllegalAction("S10", "the order's target must not be a Ring member")
    check_living(state, performer)
    if state.seats[performer].role not in RING_ROLES:
        raise IllegalAction("S10", "the performer must be a living Ring member")


def check_vote(state: State, action: CastVote) -> None:
    """A vote names a living player or Abstains (S21)."""
    check_vote_at(state, action.seat, action.choice)


def check_vote_at(state: State, seat: int, choice: int) -> None:
    """`seat`'s vote for `choice`: a living player, or ABSTAIN (S21)."""
    alive = state.alive
    if state.winner is not None or not (0 <= seat < len(alive) and alive[seat]):
        check_actor(state, seat)
    if choice != ABSTAIN and not (0 <= choice < len(alive) and alive[choice]):
        check_living(state, choice, "S21")


def whispers_sent_today(state: State, seat: int) -> int:
    """How many whispers this seat has sent today (S31)."""
    return sum(1 for whisper in state.whispers if whisper.sender == seat)


def check_whisper(state: State, action: SendWhisper, sent_today: int | None = None) -> None:
    """Two a day, each to another living player (S31); `sent_today` overrides the count."""
    if sent_today is None:
        sent_today = whispers_sent_today(state, action.seat)
    check_whisper_at(state, action.seat, action.recipient, action.text, sent_today)


def check_whisper_at(state: State, seat: int, recipient: int, text: str, sent_today: int) -> None:
    """A whisper from `seat`, who sent `sent_today` already: two a day, to another (S31)."""
    alive = state.alive
    if state.winner is not None or not (0 <= seat < len(alive) and alive[seat]):
        check_actor(state, seat)
    if sent_today >= WHISPERS_PER_DAY:
        raise IllegalAction("S31", "two whispers a day at most")
    if recipient == seat:
        raise IllegalAction("S31", "a whisper goes to another player")
    if not (0 <= recipient < len(alive) and alive[recipient]):
        check_living(state, recipient, "S31")
    if len(text) > TEXT_LIMIT:
        raise IllegalAction("S31", f"a whisper holds at most {TEXT_LIMIT} characters")


def check_final_cable(state: State, action: EditFinalCable) -> None:
    """Editable while alive, at most 2,000 characters (S32)."""
    check_open(state)
    check_living(state, action.seat, "S32")
    if len(action.text) > TEXT_LIMIT:
        raise IllegalAction("S32", f"a Final Cable holds at most {TEXT_LIMIT} characters")


def check_removal(state: State, action: RemovePlayer) -> None:
    """The host removes only a living player of a running game (S40)."""
    check_open(state)
    check_living(state, action.seat, "S40")


def all_done(state: State) -> bool:
    """S41: every living player has marked themselves done for the day."""
    return not state.over and all(
        done for done, alive in zip(state.done, state.alive, strict=True) if alive
    )
