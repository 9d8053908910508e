"""Finished games: the game record download and the turn-by-turn replay viewer.

A record holds every deal, so it is served only once the game is over (C12 until then); the
replay shows any seat's view at any step, or the whole table with every card revealed.
"""

from __future__ import annotations

import json
from typing import Any

from litestar import Response, get
from litestar.di import NamedDependency
from litestar.exceptions import NotFoundException
from litestar.params import FromPath, FromQuery
from litestar.response import Template

from deaddrop.engine.cards import apply as apply_action
from deaddrop.engine.cards import export_record, log_entry, start, view
from deaddrop.phrasebook.cards import log_line
from deaddrop.server.accounts.auth import Viewer
from deaddrop.server.cards.access import TableContext, access_table_for_watcher
from deaddrop.server.cards.identity import Who
from deaddrop.server.cards.present import Namer, seat_strip
from deaddrop.server.cards.table_state import load_actions, setup_of
from deaddrop.server.db.dependencies import DB
from deaddrop.server.numbers import whole_number
from deaddrop.server.render import page

WhoDep = NamedDependency[Who]
NOT_OVER = "The game record and the replay open once the game is over."


def _finished(context: TableContext) -> None:
    if context.table.status != "over":
        raise NotFoundException(NOT_OVER)


@get("/t/{table_id:str}/record.json", name="cards_record")
async def download_record(db: DB, who: WhoDep, table_id: FromPath[str]) -> Response[Any]:
    """The finished game as a game record (scenarios/cards/README.md), as a download."""
    context = await access_table_for_watcher(db, table_id, who)
    _finished(context)
    table = context.table
    names = ", ".join(seat.name or "Guest" for seat in context.seats)
    record = export_record(setup_of(table), await load_actions(db, table), name=names)
    return Response(
        json.dumps(record, indent=2) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="cards-{table.public_id}.json"'},
    )


@get("/t/{table_id:str}/replay", name="cards_replay")
async def replay_page(
    db: DB,
    viewer: Viewer,
    who: WhoDep,
    table_id: FromPath[str],
    step: FromQuery[str] = "0",
    seat: FromQuery[str] = "all",
) -> Template:
    """Step through a finished game from one seat's point of view, or with all cards shown."""
    wanted_step = whole_number(step, "step")
    seat_index = None if seat == "all" else whole_number(seat, "seat")
    context = await access_table_for_watcher(db, table_id, who)
    _finished(context)
    actions = await load_actions(db, context.table)
    shown = min(wanted_step, len(actions))
    state = start(setup_of(context.table))
    for action in actions[:shown]:
        state, _ = apply_action(state, action)
    if seat_index is not None and seat_index >= context.table.players:
        seat_index = None  # no such seat: the whole table, as for "all"
    namer = Namer(context.seats, seat_index)
    if seat_index is None:
        # The game is over: every card of it may be shown, private trades included.
        seen = view(state, None)
        entries = [log_entry(event) for event in state.log]
        hands = [(namer(s), list(hand)) for s, hand in enumerate(state.hands)]
    else:
        seen = view(state, seat_index)
        entries = seen["log"]
        hands = [(namer(seat_index), seen["hand"])]
    return page(
        "cards/replay.html",
        viewer=viewer,
        table=context.table,
        seats=context.seats,
        step=shown,
        steps=len(actions),
        seat=seat if seat_index is not None else "all",
        strip=seat_strip(seen, context.seats, seat_index),
        hands=hands,
        stash=seen["stash"],
        drop=state.drop if seat_index is None else None,
        log=[log_line(entry, namer) for entry in entries][::-1],
    )
