"""What a player saves during the day: each endpoint takes a form (→ redirect) or JSON (→ JSON).

Every path exists twice, `/games/{id}/…` for forms and `/api/games/{id}/…` for scripts. The
handlers only translate codenames into the engine's seats; whether a save is legal is the
engine's answer (a refusal comes back with its rule in plain words).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from litestar import Response, Router, post
from litestar.di import NamedDependency
from litestar.params import FromPath
from litestar.response import Redirect

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
from deaddrop.server.station.game.access import access_game_for_player
from deaddrop.server.station.game.http import (
    AnyRequest,
    answer,
    back_to,
    fields_of,
    flag,
    refuse,
    version_of,
)
from deaddrop.server.station.game.store import load_state
from deaddrop.server.station.game.writes import table_epoch
from deaddrop.server.station.play.service import do_act

ClockDep = NamedDependency[Clock]
"""Annotation of a handler parameter `clock`: the app's clock (a manual one in tests)."""
Reply = Response[Any] | Redirect


@dataclass(frozen=True)
class Posted:
    """A save as posted, with what is needed to read it: the state and the actor's seat."""

    state: State
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
    default = f"/games/{game_id}/{tab}"
    fields: dict[str, str] = {}
    try:
        fields = await fields_of(request)
        state = await load_state(db, context.game)
        action = read(Posted(state, context.seat, fields))
        acted = await do_act(db, context, action, clock=clock, expected_version=version_of(fields))
    except Refused as refusal:
        return refuse(request, back_to(request, fields, default), refusal)
    return answer(
        request, back_to(request, fields, default), message, version=table_epoch(acted.state)
    )


def _paths(tail: str) -> list[str]:
    return [f"/games/{{game_id:str}}/{tail}", f"/api/games/{{game_id:str}}/{tail}"]


@post(_paths("operation"), name="station_operation")
async def save_operation(
    request: AnyRequest, db: DB, me: Me, clock: ClockDep, game_id: FromPath[str]
) -> Reply:
    """Save (or change) one's own Operation: field `target`, a codename (S7, S9)."""

    def read(posted: Posted) -> Action:
        return SaveOperation(posted.seat, posted.seat_of("target"))

    return await _save(request, db, me, clock, game_id, "operations", read, "Operation saved.")


@post(_paths("order"), name="station_order")
async def save_order(
    request: AnyRequest, db: DB, me: Me, clock: ClockDep, game_id: FromPath[str]
) -> Reply:
    """File the Ring order: fields `target` and `performer`, codenames (S10, S11)."""

    def read(posted: Posted) -> Action:
        return SaveOrder(posted.seat, posted.seat_of("target"), posted.seat_of("performer"))

    return await _save(request, db, me, clock, game_id, "operations", read, "Ring order filed.")


@post(_paths("operation/withdraw"), name="station_withdraw_operation")
async def withdraw_operation(
    request: AnyRequest, db: DB, me: Me, clock: ClockDep, game_id: FromPath[str]
) -> Reply:
    """Withdraw today's Operation or order: back to No action (S7)."""

    def read(posted: Posted) -> Action:
        return WithdrawOperation(posted.seat)

    message = "Operation withdrawn: no action today."
    return await _save(request, db, me, clock, game_id, "operations", read, message)


@post(_paths("vote"), name="station_vote")
async def cast_vote(
    request: AnyRequest, db: DB, me: Me, clock: ClockDep, game_id: FromPath[str]
) -> Reply:
    """Vote: field `vote`, a codename or `abstain` (S21)."""

    def read(posted: Posted) -> Action:
        if posted.fields.get("vote", "").strip().lower() == "abstain":
            return CastVote(posted.seat, ABSTAIN)
        return CastVote(posted.seat, posted.seat_of("vote"))

    return await _save(request, db, me, clock, game_id, "floor", read, "Vote saved.")


@post(_paths("vote/withdraw"), name="station_withdraw_vote")
async def withdraw_vote(
    request: AnyRequest, db: DB, me: Me, clock: ClockDep, game_id: FromPath[str]
) -> Reply:
    """Withdraw today's vote: it counts as Abstain (S7)."""

    def read(posted: Posted) -> Action:
        return WithdrawVote(posted.seat)

    message = "Vote withdrawn: you abstain unless you vote again."
    return await _save(request, db, me, clock, game_id, "floor", read, message)


@post(_paths("final-cable"), name="station_final_cable")
async def edit_final_cable(
    request: AnyRequest, db: DB, me: Me, clock: ClockDep, game_id: FromPath[str]
) -> Reply:
    """Replace one's Final Cable: field `text`, at most 2,000 characters (S32)."""

    def read(posted: Posted) -> Action:
        # Browsers send CRLF line ends; store the text as the person sees it.
        return EditFinalCable(posted.seat, posted.fields.get("text", "").replace("\r\n", "\n"))

    return await _save(request, db, me, clock, game_id, "dossier", read, "Final Cable saved.")


@post(_paths("done"), name="station_done")
async def mark_done(
    request: AnyRequest, db: DB, me: Me, clock: ClockDep, game_id: FromPath[str]
) -> Reply:
    """Mark oneself done (`done=yes`) or not (`done=no`) for the day (S41)."""

    def read(posted: Posted) -> Action:
        return MarkDone(posted.seat, "done" not in posted.fields or flag(posted.fields, "done"))

    return await _save(request, db, me, clock, game_id, "operations", read, "Sign-off noted.")


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
