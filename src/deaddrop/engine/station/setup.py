"""Starting a game: the S1 role table, bird codenames and the seeded deal (S2–S5)."""

from __future__ import annotations

from collections.abc import Sequence

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.records import builder, record
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.roles import (
    BIRDS,
    FACTION,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RINGLEADER,
    ROLE_TABLE,
)
from deaddrop.engine.station.state import Seat, State


@record
class Setup:
    """Everything a game starts from; with the action log it replays the game exactly."""

    players: tuple[str, ...]
    """The joiners in join order (S2)."""
    seed: int
    """The seed of the deal and of every later draw (S4)."""
    deal: tuple[tuple[str, str], ...] | None = None
    """(codename, role) per seat when fixed in advance (scenarios); None deals from the seed."""


_SORTED_TABLE = {count: sorted(roles) for count, roles in ROLE_TABLE.items()}


def check_player_count(count: int) -> None:
    """Refuse a table size outside S1."""
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise IllegalAction("S1", f"Station needs 6 to 10 players, not {count}")


def deal(players: Sequence[str], seed: int) -> tuple[tuple[tuple[str, str], ...], Rng]:
    """Deal roles and distinct codenames from the seed (S3, S4); return them and the RNG."""
    check_player_count(len(players))
    rng = Rng.from_seed(seed)
    roles, rng = rng.shuffled(ROLE_TABLE[len(players)])
    birds, rng = rng.shuffled(BIRDS)
    return tuple(zip(birds, roles, strict=False)), rng


def check_deal(deal: Sequence[tuple[str, str]]) -> None:
    """Refuse a fixed deal whose roles or codenames break S1 or S3."""
    check_player_count(len(deal))
    codenames = [codename for codename, _ in deal]
    for codename in codenames:
        if not codename or codename != codename.upper() or not codename.isalpha():
            raise IllegalAction("S3", f"codename {codename!r} must be one upper-case word")
    if len(set(codenames)) != len(codenames):
        raise IllegalAction("S3", "codenames must be distinct")
    roles = [role for _, role in deal]
    for role in roles:
        if role not in FACTION:
            raise IllegalAction("S1", f"no such role {role!r}")
    roles.sort()  # the same roles as the table, each as many times: the same sorted list
    if roles != _SORTED_TABLE[len(deal)]:
        raise IllegalAction("S1", f"the roles do not match the S1 table for {len(deal)} players")


def start(setup: Setup) -> State:
    """The state at the start of Day 1 (S6)."""
    if setup.deal is None:
        fixed, rng = deal(setup.players, setup.seed)
    else:
        check_deal(setup.deal)
        if len(setup.players) != len(setup.deal):
            raise IllegalAction("S1", "one player per dealt seat")
        fixed, rng = tuple(setup.deal), Rng.from_seed(setup.seed)
    new_seat = builder(Seat)
    seats = tuple(
        [
            new_seat(index, player, codename, role)
            for index, (player, (codename, role)) in enumerate(
                zip(setup.players, fixed, strict=True)
            )
        ]
    )
    count = len(seats)
    ringleader = [seat.role for seat in seats].index(RINGLEADER)
    return builder(State)(
        seats=seats,
        seed=setup.seed,
        rng=rng,
        day=1,
        alive=(True,) * count,
        operations=(None,) * count,
        votes=(None,) * count,
        whispers=(),
        final_cables=("",) * count,
        done=(False,) * count,
        order_holder=ringleader,  # S11: the Ringleader holds the order
        last_detained=None,
        interrogation=None,
        history=(),
        deaths=(),
        winner=None,
    )


def setup_from_deal(deal: Sequence[tuple[str, str]], seed: int = 0) -> Setup:
    """A setup with a fixed deal, players named after their codenames (scenarios, tests)."""
    return Setup(tuple([codename for codename, _ in deal]), seed, tuple(deal))
