"""Playing Cards through the HTTP forms in tests: read the table's state, post legal moves."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.cards import (
    Action,
    EndTurn,
    GiveCard,
    Grab,
    HandBack,
    SellSecrets,
    ShareInfo,
    State,
    SwapStash,
    legal_actions,
)
from deaddrop.server.cards.models import CardsSeat, CardsTable
from deaddrop.server.cards.table_state import load_actions, load_state
from tests.server.visitor import Visitor, csrf_token_in

T = TypeVar("T")
RunDb = Callable[[Callable[[AsyncSession], Awaitable[Any]]], Any]
_TABLE_URL = re.compile(r"/cards/t/([A-Za-z0-9_-]+)")


def table_id_of(response: httpx.Response) -> str:
    """The table id of the page a form redirected to."""
    found = _TABLE_URL.search(str(response.url))
    assert found is not None, response.url
    return found.group(1)


def open_solo(visitor: Visitor, **fields: str) -> str:
    """One click against bots; returns the table id."""
    response = visitor.submit("/cards", fields, action="/cards/solo")
    assert response.status_code == 200, response.text
    return table_id_of(response)


def open_table(visitor: Visitor, **fields: str) -> str:
    """Open a table with the full form; returns the table id."""
    response = visitor.submit("/cards", fields, action="/cards/tables")
    assert response.status_code == 200, response.text
    return table_id_of(response)


def table_row(run_db: RunDb, table_id: str) -> CardsTable:
    """The table row as stored now."""

    async def fetch(db: AsyncSession) -> CardsTable:
        table = await db.scalar(select(CardsTable).where(CardsTable.public_id == table_id))
        assert table is not None
        return table

    row: CardsTable = run_db(fetch)
    return row


def seat_rows(run_db: RunDb, table_id: str) -> list[CardsSeat]:
    """The table's seats as stored now."""

    async def fetch(db: AsyncSession) -> list[CardsSeat]:
        table = await db.scalar(select(CardsTable).where(CardsTable.public_id == table_id))
        assert table is not None
        rows = await db.scalars(
            select(CardsSeat).where(CardsSeat.table_id == table.id).order_by(CardsSeat.seat)
        )
        return list(rows)

    seats: list[CardsSeat] = run_db(fetch)
    return seats


def state_of(run_db: RunDb, table_id: str) -> State:
    """The engine state of the table (the test's referee, never shown to a player)."""

    async def fetch(db: AsyncSession) -> State:
        table = await db.scalar(select(CardsTable).where(CardsTable.public_id == table_id))
        assert table is not None
        return await load_state(db, table)

    state: State = run_db(fetch)
    return state


def actions_of(run_db: RunDb, table_id: str) -> list[Action]:
    """The table's action log as stored now."""

    async def fetch(db: AsyncSession) -> list[Action]:
        table = await db.scalar(select(CardsTable).where(CardsTable.public_id == table_id))
        assert table is not None
        return await load_actions(db, table)

    actions: list[Action] = run_db(fetch)
    return actions


def fields_for(action: Action) -> dict[str, str]:
    """The form fields that post this action."""
    if isinstance(action, ShareInfo):
        out = {"kind": "share_info", "target": str(action.target), "give": str(action.give)}
        if action.take is not None:
            out["take"] = str(action.take)
        return out
    if isinstance(action, SwapStash):
        return {"kind": "swap_stash", "give": str(action.give), "take": str(action.take)}
    if isinstance(action, SellSecrets):
        a, b = action.show
        return {
            "kind": "sell_secrets",
            "target": str(action.target),
            "show_a": str(a),
            "show_b": str(b),
        }
    if isinstance(action, GiveCard):
        return {"kind": "give_card", "card": str(action.card)}
    if isinstance(action, HandBack):
        return {"kind": "hand_back", "card": str(action.card)}
    if isinstance(action, Grab):
        return {"kind": "grab", "pair": f"{action.pair[0]}-{action.pair[1]}", "confirm": "yes"}
    assert isinstance(action, EndTurn)
    return {"kind": "end_turn"}


def post_move(
    visitor: Visitor, table_id: str, fields: dict[str, str], *, json: bool = False
) -> httpx.Response:
    """Post a move from the table page's form (with its CSRF token)."""
    page = visitor.get(f"/cards/t/{table_id}")
    token = csrf_token_in(page.text)
    headers = {"Accept": "application/json"} if json else {}
    return visitor.http.post(
        f"/cards/t/{table_id}/act",
        data={**fields, "_csrf_token": token},
        headers=headers,
        follow_redirects=not json,
    )


def winning_grab(state: State) -> Action | None:
    """A grab that matches The Drop, if the mover holds one (the referee knows The Drop)."""
    for action in legal_actions(state):
        if isinstance(action, Grab) and sum(action.pair) == state.drop:
            return action
    return None


def play_to_the_end(
    players: dict[int, Visitor],
    run_db: RunDb,
    table_id: str,
    limit: int = 400,
    *,
    fold: bool = False,
) -> State:
    """Play every person's decisions (bots play themselves) until the game is over.

    People grab when they hold The Drop's sum; with `fold` they otherwise grab wrong and drop
    out, so that a table of people and a bot ends by the last agent standing (C9).
    """
    for move in range(limit):
        state = state_of(run_db, table_id)
        if state.pending is None:
            return state
        visitor = players[state.pending.seat]
        # A round ends only on a grab (C8, C9): a deal where nobody ever holds the sum and a
        # bot never dares to grab would swap on forever, so past half the limit people fold.
        folding = fold or move >= limit // 2
        action = winning_grab(state) or _steady(state, folding)
        response = post_move(visitor, table_id, fields_for(action), json=True)
        assert response.status_code == 200, response.text
    raise AssertionError("the game did not end")


def _steady(state: State, fold: bool) -> Action:
    """A quiet legal move: swap when possible; a losing grab only when folding."""
    if fold:
        grabs = [a for a in legal_actions(state) if isinstance(a, Grab)]
        if grabs:
            return grabs[0]
    options = [a for a in legal_actions(state) if not isinstance(a, Grab)]
    swaps = [a for a in options if isinstance(a, SwapStash)]
    return (swaps or options)[0]


def join_by_invite(visitor: Visitor, run_db: RunDb, table_id: str) -> httpx.Response:
    """Take a free seat with the table's invite link."""
    token = table_row(run_db, table_id).invite_token
    return visitor.submit(f"/cards/invite/{token}", {})
