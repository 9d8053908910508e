"""A Station bot that saves uniformly random legal choices, reading only its seat's view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from deaddrop.bots.station.base import DayPlan
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.claims import Post
from deaddrop.engine.station.game import apply
from deaddrop.engine.station.setup import Setup, start
from deaddrop.engine.station.state import ABSTAIN, State
from deaddrop.engine.station.views import view


def choose_day(
    me: Mapping[str, Any], seat_of: Mapping[str, int], seat: int, rng: Rng
) -> tuple[list[A.Action], Rng]:
    """Random saves (and a done mark) for one day from the seat's view section `view(...)["me"]`."""
    options = me["options"]
    chosen: list[A.Action] = []
    roll, rng = rng.below(4)
    if options["order_targets"] and roll < 2:
        target, rng = rng.choice(options["order_targets"])
        performer, rng = rng.choice(options["order_performers"])
        chosen.append(A.SaveOrder(seat, seat_of[target], seat_of[performer]))
    elif options["ability_targets"] and roll < 3:
        target, rng = rng.choice(options["ability_targets"])
        chosen.append(A.SaveOperation(seat, seat_of[target]))
    roll, rng = rng.below(3)
    if roll:
        choice, rng = rng.choice([*options["vote_choices"], "abstain"])
        chosen.append(A.CastVote(seat, ABSTAIN if choice == "abstain" else seat_of[choice]))
    count, rng = rng.below(3)
    for _ in range(count if options["whisper_recipients"] else 0):
        recipient, rng = rng.choice(options["whisper_recipients"])
        chosen.append(A.SendWhisper(seat, seat_of[recipient], f"note {rng.state % 997}"))
    roll, rng = rng.below(3)
    if roll == 0:
        chosen.append(A.MarkDone(seat))  # S41: done for the day, now and then
    return chosen, rng


def decide_day(seen: Mapping[str, Any], rng: Rng) -> tuple[list[A.Action], Rng]:
    """The random bot's day for the seat whose view this is (S42: the view alone)."""
    seat_of = {entry["codename"]: index for index, entry in enumerate(seen["roster"])}
    return choose_day(seen["me"], seat_of, seat_of[seen["me"]["codename"]], rng)


def plan_day(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
    """The random level's whole day: random saves, no posts (it reads none of them)."""
    actions, rng = decide_day(seen, rng)
    return DayPlan(tuple(a for a in actions if isinstance(a, A.DayAction))), rng


def random_game(
    players: Sequence[str], seed: int, *, max_days: int = 10
) -> tuple[State, list[A.Action]]:
    """A whole game of random bots: the final state and the action log that replays it."""
    state = start(Setup(tuple(players), seed))
    seat_of = {seat.codename: seat.index for seat in state.seats}
    rng = Rng.from_seed(seed ^ 0x5EED)
    log: list[A.Action] = []
    while not state.over and state.day <= max_days:
        for seat in state.living():
            me = view(state, seat)["me"]
            chosen, rng = choose_day(me, seat_of, seat, rng)
            for action in chosen:
                state, _ = apply(state, action)
                log.append(action)
        state, _ = apply(state, A.ResolvePouch())
        log.append(A.ResolvePouch())
    return state, log
