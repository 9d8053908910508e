"""Render the table fragment for one seat from its view at delivery time (C12)."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.bots.cards.hint import Hint, game_hint
from deaddrop.engine.cards import view
from deaddrop.server.cards.access import TableContext
from deaddrop.server.cards.present import Namer, hint_context, table_context
from deaddrop.server.cards.table_state import load_actions, load_state

BODY_TEMPLATE = "cards/table_body.html"


async def body_context(db: AsyncSession, context: TableContext) -> dict[str, Any]:
    """What `table_body.html` needs, for this person's seat (or a watcher: seat None)."""
    table = context.table
    base: dict[str, Any] = {"table": table, "seats": context.seats, "mine": context.mine}
    if table.status == "open":
        return {**base, "game": None}
    state = await load_state(db, table)
    # C12: the only thing that leaves the engine for this page is this seat's view.
    seat_view = view(state, context.seat)
    game = table_context(seat_view, context.seats, context.mine)
    hint: Hint | None = None
    if state.pending is None and context.mine is not None and context.mine.notebook:
        # After the game only: the master's weighing of my last decision, from my view then.
        actions = await load_actions(db, table)
        hint = await asyncio.to_thread(game_hint, state.setup, actions, context.mine.seat)
    game["hint"] = hint_context(hint, Namer(context.seats, context.seat))
    return {**base, "game": game}


def render_body(request: Any, values: dict[str, Any]) -> str:
    """The fragment's HTML (the request gives the template its CSRF token)."""
    template = request.app.template_engine.get_template(BODY_TEMPLATE)
    html: str = template.render(request=request, **values)
    return html
