"""Who a stand-in is for, and what it may not touch, decided from public things only: the
stand-in's start is public (S42), so it must not tell the table that someone saved a secret
Operation or not (S26-S31). And a stand-in never replaces a save its person made today."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import Action, State, action_to_json
from deaddrop.engine.station.channels import Channel
from deaddrop.engine.station.views import view
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.game.models import StationAction

SAVE_KINDS = {
    "save_operation": "operation",
    "save_order": "operation",
    "withdraw_operation": "operation",
    "cast_vote": "vote",
    "withdraw_vote": "vote",
    "edit_final_cable": "final_cable",
    "mark_done": "done",
}
"""Saves of the same kind replace each other (S7, S32, S41): the log's kind → its kind."""


async def quiet_today(db: AsyncSession, game_id: int, state: State, seat: int) -> bool:
    """Whether the seat has done nothing the whole table can see today: no vote (S21), no
    whisper (S31), no done mark (S41), no Floor post (S28)."""
    public = view(state, None)  # a spectator's view: only what everyone may know
    codename = state.seats[seat].codename
    if any(v["voter"] == codename and v["vote"] is not None for v in public["votes"]):
        return False
    if codename in public["done"]:
        return False
    today = [w for w in public["whispers_announced"] if w["day"] == state.day]
    if any(w["sender"] == codename for w in today):
        return False
    posted = await db.scalar(
        select(StationMessage.id)
        .where(
            StationMessage.game_id == game_id,
            StationMessage.seat == seat,
            StationMessage.day == state.day,
            StationMessage.channel == Channel.FLOOR.value,
        )
        .limit(1)
    )
    return posted is None


async def check_own_saves_stand(
    db: AsyncSession, context: GameContext, day: int, action: Action
) -> None:
    """Refuse a stand-in's save of a kind its person saved themselves today (their own
    saves win, also those made before it began); anyone else's action passes."""
    row = context.seat_row
    if context.user is not None or row is None or row.user_id is None:
        return  # a person acting, or a bot on a seat of its own
    kind = SAVE_KINDS.get(action_to_json(action)["kind"])
    if kind is None:
        return
    theirs = await db.scalars(
        select(StationAction.action).where(
            StationAction.game_id == context.game.id,
            StationAction.day == day,
            StationAction.user_id == row.user_id,
        )
    )
    if any(SAVE_KINDS.get(saved.get("kind", "")) == kind for saved in theirs):
        raise Refused("The officer saved this themselves today; the stand-in leaves it be.")
