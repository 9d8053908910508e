"""What a player saves during the day: each endpoint takes a form (→ redirect) or JSON (→ JSON).

Every path exists twice, `/games/{id}/…` for forms and `/api/games/{id}/…` for scripts. The
handlers only translate codenames into the engine's seats; whether a save is legal is the
engine's answer (a refusal comes back with its rule in plain words).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from litestar import Response, Router
from litestar.handlers import HTTPRouteHandler

from deaddrop.engine.station import (
    ABSTAIN,
    Action,
    CastVote,
    EditFinalCable,
    MarkDone,
    SaveOperation,
    SaveOrder,
    State,
    WithdrawOperation,
    WithdrawVote,
)
from deaddrop.server.accounts.auth import Me
from deaddrop.server.clock import Clock
from deaddrop.server.db.dependencies import DB
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.sessions import SessionBackend
from deaddrop.server.station.game.access import access_game_for_player
from deaddrop.server.station.game.http import (
    AnyRequest,
    Done,
    Reply,
    flag,
    game_post,
    handle_form,
    version_of,
)
from deaddrop.server.station.game.store import names_state
from deaddrop.server.station.game.writes import table_epoch
from deaddrop.server.station.play.plain_saves import plain_save
from deaddrop.server.station.play.service import do_act


@dataclass(frozen=True)
class Posted:
    """A save as posted, with what is needed to read it: the game's codenames and the actor's
    seat."""

    state: State
    """A state of the game, at any version: only its seats' codenames are read (fixed, S3)."""
    seat: int
    fields: dict[str, str]

    def seat_of(self, name: str) -> int:
        """The seat with the codename in field `name`."""
        codename = self.fields.get(name, "").strip().upper()
        if not codename:
            raise Refused(f"Choose a {name}.")
        seat = self.state.seat_by_codename(codename)
        if seat is None:
            raise Refused(f"No player at this table is called {codename[:20]} (rule S3).", "S3")
        return seat


Reader = Callable[[Posted], Action]


async def _save(
    request: AnyRequest,
    db: DB,
    me: Me,
    clock: Clock,
    game_id: str,
    tab: str,
    read: Reader,
    message: str,
) -> Reply:
    """Access the player's game, read the save, apply it through the engine, answer."""
    context = await access_game_for_player(db, game_id, me)
    assert context.seat is not None
    seat = context.seat

    async def work(fields: dict[str, str]) -> Done:
        action = read(Posted(await names_state(db, context.game), seat, fields))
        acted = await do_act(db, context, action, clock=clock, expected_version=version_of(fields))
        return Done(message, {"version": table_epoch(acted.state)})

    return await handle_form(request, f"/games/{game_id}/{tab}", work)


def save_route(
    tail: str, name: str, tab: str, message: str
) -> Callable[[Reader], HTTPRouteHandler]:
    """The endpoint of one kind of save, made from its reader: the reader turns the posted form
    into the engine's action (its docstring is the endpoint's); back on `tab` with `message`."""

    def endpoint_of(read: Reader) -> HTTPRouteHandler:
        async def endpoint(
            request: AnyRequest, db: DB, me: Me, clock: Clock, game_id: str
        ) -> Reply:
            return await _save(request, db, me, clock, game_id, tab, read, message)

        def read_plainly(state: State, seat: int, fields: dict[str, str]) -> Action:
            return read(Posted(state, seat, fields))

        async def plain(
            request: AnyRequest, backend: SessionBackend, clock: Clock
        ) -> Response[Any] | None:
            return await plain_save(request, backend, clock, read_plainly, message)

        return game_post(tail, name, endpoint, read.__doc__, plain)

    return endpoint_of


OPS, FLOOR = "operations", "floor"


@save_route("operation", "station_operation", OPS, "Operation saved.")
def save_operation(posted: Posted) -> Action:
    """Save (or change) one's own Operation: field `target`, a codename (S7, S9)."""
    return SaveOperation(posted.seat, posted.seat_of("target"))


@save_route("order", "station_order", OPS, "Ring order filed.")
def save_order(posted: Posted) -> Action:
    """File the Ring order: fields `target` and `performer`, codenames (S10, S11)."""
    return SaveOrder(posted.seat, posted.seat_of("target"), posted.seat_of("performer"))


@save_route(
    "operation/withdraw", "station_withdraw_operation", OPS, "Operation withdrawn: no action today."
)
def withdraw_operation(posted: Posted) -> Action:
    """Withdraw today's Operation or order: back to No action (S7)."""
    return WithdrawOperation(posted.seat)


@save_route("vote", "station_vote", FLOOR, "Vote saved.")
def cast_vote(posted: Posted) -> Action:
    """Vote: field `vote`, a codename or `abstain` (S21)."""
    if posted.fields.get("vote", "").strip().lower() == "abstain":
        return CastVote(posted.seat, ABSTAIN)
    return CastVote(posted.seat, posted.seat_of("vote"))


@save_route(
    "vote/withdraw",
    "station_withdraw_vote",
    FLOOR,
    "Vote withdrawn: you abstain unless you vote again.",
)
def withdraw_vote(posted: Posted) -> Action:
    """Withdraw today's vote: it counts as Abstain (S7)."""
    return WithdrawVote(posted.seat)


@save_route("final-cable", "station_final_cable", "dossier", "Final Cable saved.")
def edit_final_cable(posted: Posted) -> Action:
    """Replace one's Final Cable: field `text`, at most 2,000 characters (S32)."""
    # Browsers send CRLF line ends; store the text as the person sees it.
    return EditFinalCable(posted.seat, posted.fields.get("text", "").replace("\r\n", "\n"))


@save_route("done", "station_done", OPS, "Sign-off noted.")
def mark_done(posted: Posted) -> Action:
    """Mark oneself done (`done=yes`) or not (`done=no`) for the day (S41)."""
    return MarkDone(posted.seat, "done" not in posted.fields or flag(posted.fields, "done"))


router = Router(
    path="/",
    route_handlers=[
        save_operation,
        save_order,
        withdraw_operation,
        cast_vote,
        withdraw_vote,
        edit_final_cable,
        mark_done,
    ],
)
