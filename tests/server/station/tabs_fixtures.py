"""Games at telling moments, the GameInfo a page gets with them, and a renderer without a DB.

Every secret a game holds is a unique marker here (whisper texts, Final Cables), so that a
test can look for it in a page as a plain string.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from jinja2 import Environment, pass_context
from jinja2.runtime import Context

from deaddrop.bots.station.random_bot import choose_day
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A
from deaddrop.engine.station import apply, setup_from_deal, start
from deaddrop.engine.station.setup import StationSetup
from deaddrop.engine.station.state import StationState
from deaddrop.engine.station.views import view
from deaddrop.server.render import jinja_environment
from deaddrop.server.station.info import GameInfo, SeatInfo
from deaddrop.server.station.tabs import tab_context

DEADLINE = datetime(2025, 3, 30, 18, 0, tzinfo=UTC)
"""A Pouch on the day Berlin moves to summer time."""
CSRF = "csrf-token-for-tests"


@dataclass(frozen=True)
class Moment:
    """A game state worth rendering, and what to call it in a failing test."""

    name: str
    state: StationState


def final_cable_marker(codename: str) -> str:
    """The Final Cable a seat writes in these games: unique, and no substring of another."""
    return f"FINALCABLE{codename}END"


def whisper_marker(number: int) -> str:
    """The text of the n-th whisper of a game."""
    return f"WHISPERTEXT{number:04d}END"


def game_info(state: StationState, seat: int | None, **overrides: Any) -> GameInfo:
    """What the service would say of this game to this viewer."""
    fields: dict[str, Any] = {
        "game_id": "g-test",
        "title": "Operation Gold",
        "status": "over" if state.over else "running",
        "seat": seat,
        "is_host": seat == 0,
        "deadline": None if state.over else DEADLINE,
        "game_time_zone": "Europe/Berlin",
        "viewer_time_zone": "America/New_York",
        "early_pouch": True,
        "seats": tuple(
            SeatInfo(s.codename, f"Person {s.index}", int(s.index == 0), s.index == 1)
            for s in state.seats
        ),
    }
    fields.update(overrides)
    return GameInfo(**fields)


@pass_context
def _csrf_token(context: Context) -> str:
    # Like Litestar's, this reads the page's context: a macro imported without it fails here.
    return CSRF if "viewer" in context else context["request"]


def environment() -> Environment:
    """The app's template environment with what Litestar would add per request."""
    env = jinja_environment()
    env.globals["csrf_token"] = _csrf_token
    env.globals["get_flashes"] = list
    return env


_ENV = environment()


def render(tab: str, state: StationState, seat: int | None, **overrides: Any) -> str:
    """The HTML of one tab for one viewer (None: a spectator)."""
    info = game_info(state, seat, **overrides)
    base = "/watch/token" if seat is None else None
    context = tab_context(tab, view(state, seat), info, base_path=base)
    return _ENV.get_template(f"station/tabs/{tab}.html").render(viewer=None, **context)


def _final_cables(state: StationState) -> StationState:
    """Every seat writes its marker Final Cable (S32)."""
    for seat in state.seats:
        state, _ = apply(state, A.EditFinalCable(seat.index, final_cable_marker(seat.codename)))
    return state


def random_moments(players: int, seed: int) -> Iterator[Moment]:
    """A random game of random bots: the state mid-day of every day, and after the end."""
    state = _final_cables(start(StationSetup(tuple(f"p{i}" for i in range(players)), seed)))
    seat_of = {seat.codename: seat.index for seat in state.seats}
    rng = Rng.from_seed(seed)
    whispers = 0
    while not state.over:
        for seat in state.living():
            chosen, rng = choose_day(view(state, seat)["me"], seat_of, seat, rng)
            for action in chosen:
                if isinstance(action, A.SendWhisper):
                    whispers += 1
                    action = A.SendWhisper(action.seat, action.recipient, whisper_marker(whispers))
                state, _ = apply(state, action)
        yield Moment(f"{players} players, seed {seed}, day {state.day}", state)
        state, _ = apply(state, A.ResolvePouch())
    yield Moment(f"{players} players, seed {seed}, over", state)


SIX = (
    ("OWL", "ringleader"),
    ("RAVEN", "forger"),
    ("HERON", "analyst"),
    ("WREN", "safehouse_keeper"),
    ("KESTREL", "field_agent"),
    ("FALCON", "field_agent"),
)
OWL, RAVEN, HERON, WREN, KESTREL, FALCON = range(6)


def scripted_moments() -> Iterator[Moment]:
    """Six players: start, the Ringleader recalled, the heir's order, a kill, the Station wins."""
    state = _final_cables(start(setup_from_deal(SIX, seed=7)))
    yield Moment("scripted start", state)
    day1: list[A.Action] = [
        A.SaveOperation(HERON, RAVEN),
        A.SaveOperation(RAVEN, HERON),
        A.SaveOperation(WREN, KESTREL),
        A.SaveOperation(KESTREL, OWL),
        A.SendWhisper(OWL, RAVEN, whisper_marker(1)),
        A.SendWhisper(HERON, WREN, whisper_marker(2)),
        A.CastVote(HERON, OWL),
        A.CastVote(WREN, OWL),
        A.CastVote(KESTREL, OWL),
        A.CastVote(OWL, HERON),
        A.MarkDone(FALCON),
    ]
    for action in day1:
        state, _ = apply(state, action)
    yield Moment("scripted day 1 with saves", state)
    state, _ = apply(state, A.ResolvePouch())  # OWL recalled: RAVEN is the heir (S11)
    yield Moment("scripted day 2, heir, nothing saved", state)
    for action in (
        A.SaveOrder(RAVEN, WREN, RAVEN),
        A.SaveOperation(WREN, HERON),
        A.SaveOperation(FALCON, HERON),
        A.SendWhisper(FALCON, HERON, whisper_marker(3)),
        A.CastVote(RAVEN, KESTREL),
    ):
        state, _ = apply(state, action)
    yield Moment("scripted day 2, heir's order filed", state)
    state, _ = apply(state, A.ResolvePouch())  # WREN liquidated
    yield Moment("scripted day 3 after a kill", state)
    for action in (A.CastVote(HERON, RAVEN), A.CastVote(KESTREL, RAVEN)):
        state, _ = apply(state, action)
    state, _ = apply(state, A.ResolvePouch())  # RAVEN recalled: the Station wins
    yield Moment("scripted over", state)


def removal_moment() -> Moment:
    """Six players on Day 1 after the host removed FALCON (S40)."""
    state = _final_cables(start(setup_from_deal(SIX, seed=7)))
    state, _ = apply(state, A.RemovePlayer(FALCON))
    return Moment("scripted removal", state)
