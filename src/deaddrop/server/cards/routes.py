"""The Cards pages: the lobby, opening and joining tables, the table page and its moves.

Handlers are thin: `access_*` fetches what this person may reach, `forms` reads the post,
`do_*` writes; whether a move is legal is the engine's answer, refused in plain words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar import MediaType, Response, Router, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath
from litestar.response import Template
from sqlalchemy import select

from deaddrop.bots.cards.registry import BOT_NAMES
from deaddrop.server.accounts.auth import Viewer
from deaddrop.server.cards import live, records
from deaddrop.server.cards.access import (
    TableContext,
    access_table_by_invite,
    access_table_for_seat,
    access_table_for_watcher,
)
from deaddrop.server.cards.forms import (
    action_maker,
    read_table_form,
    solo_form,
    version_of,
)
from deaddrop.server.cards.fragments import body_context, render_body
from deaddrop.server.cards.http import (
    done,
    fields_of,
    refuse,
    runtime,
    seated,
)
from deaddrop.server.cards.identity import Who, provide_who
from deaddrop.server.cards.models import CardsSeat, CardsTable
from deaddrop.server.cards.service import (
    TableForm,
    do_act,
    do_join,
    do_notebook,
    do_open_table,
    do_take_back,
    joined_message,
)
from deaddrop.server.cards.table_state import stream_of
from deaddrop.server.db.dependencies import DB
from deaddrop.server.hosting.forms import AnyRequest, Reply, flag
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.live import journal
from deaddrop.server.render import page

WhoDep = NamedDependency[Who]
"""Annotation of a handler parameter `who`: the account or guest asking."""
LOBBY_LIMIT = 30


def table_path(table: CardsTable) -> str:
    """The table page."""
    return f"/cards/t/{table.public_id}"


async def _my_tables(db: DB, who: Who) -> list[CardsTable]:
    if who.user is not None:
        mine = CardsSeat.user_id == who.user.id
    elif who.guest_key is not None:
        mine = CardsSeat.guest_key == who.guest_key
    else:
        return []
    rows = await db.scalars(
        select(CardsTable)
        .join(CardsSeat, CardsSeat.table_id == CardsTable.id)
        .where(mine)
        .order_by(CardsTable.updated_at.desc())
        .limit(LOBBY_LIMIT)
    )
    return list(rows)


@get("/", name="cards_lobby")
async def lobby(db: DB, viewer: Viewer, who: WhoDep) -> Template:
    """Play solo in one click, open a table, join a public one, find my tables."""
    open_tables = await db.scalars(
        select(CardsTable)
        .where(CardsTable.status == "open", CardsTable.public.is_(True))
        .order_by(CardsTable.created_at.desc())
        .limit(LOBBY_LIMIT)
    )
    return page(
        "cards/lobby.html",
        viewer=viewer,
        mine=await _my_tables(db, who),
        open_tables=list(open_tables),
        bots=BOT_NAMES,
    )


@post("/solo", name="cards_solo")
async def play_solo(request: AnyRequest, db: DB, who: WhoDep) -> Reply:
    """One click: a table of this person against bots, dealt at once (guests too)."""
    return await _open(request, db, who, solo_form)


@post("/tables", name="cards_open")
async def open_table(request: AnyRequest, db: DB, who: WhoDep) -> Reply:
    """Open a table: 2–4 seats, each a friend (invite link) or a bot; options of C8 and C11."""
    return await _open(request, db, who, read_table_form)


async def _open(
    request: AnyRequest, db: DB, who: Who, read: Callable[[dict[str, str]], TableForm]
) -> Reply:
    """Open the table the posted form asks for (`read` reads it) and go to it."""
    try:
        form = read(await fields_of(request))
        person, new_key = seated(request, who)
        table = await do_open_table(db, runtime(request), person, form)
    except Refused as refusal:
        return refuse(request, "/cards", refusal)
    return done(request, table_path(table), new_key=new_key)


@get("/t/{table_id:str}", name="cards_table")
async def table_page(
    request: AnyRequest, db: DB, viewer: Viewer, who: WhoDep, table_id: FromPath[str]
) -> Template:
    """The table: seats, my hand, The Stash, the prompt, the log; live over SSE."""
    context = await access_table_for_watcher(db, table_id, who)
    # Read before rendering: the stream then replays whatever lands while the page is built.
    # The page names the seat's own cursor, not the table's count of everyone's events.
    stream = stream_of(context.table)
    seq = await journal.cursor_at(db, stream, context.seat, await journal.last_seq(db, stream))
    values = await body_context(db, context)
    invite = f"{request.base_url}cards/invite/{context.table.invite_token}".replace(
        "//cards", "/cards"
    )
    return page(
        "cards/table.html",
        viewer=viewer,
        invite=invite if context.mine is not None else None,
        seq=seq,
        **values,
    )


@get("/t/{table_id:str}/body", name="cards_table_body")
async def table_body(
    request: AnyRequest, db: DB, who: WhoDep, table_id: FromPath[str]
) -> Response[str]:
    """The live part of the table page alone (what the script swaps in)."""
    context = await access_table_for_watcher(db, table_id, who)
    html = render_body(request, await body_context(db, context))
    return Response(html, media_type=MediaType.HTML, headers={"Cache-Control": "no-store"})


@post("/t/{table_id:str}/act", name="cards_act")
async def act(request: AnyRequest, db: DB, who: WhoDep, table_id: FromPath[str]) -> Reply:
    """A move of this person's seat, validated by the engine (stale pages are refused)."""
    context = await access_table_for_seat(db, table_id, who)
    path = table_path(context.table)
    try:
        fields = await fields_of(request)
        await do_act(db, runtime(request), context, action_maker(fields), version_of(fields))
    except Refused as refusal:
        return refuse(request, path, refusal)
    return done(request, path)


@post("/t/{table_id:str}/join", name="cards_join")
async def join_public(request: AnyRequest, db: DB, who: WhoDep, table_id: FromPath[str]) -> Reply:
    """Take a free seat at a public table."""
    context = await access_table_for_watcher(db, table_id, who)
    return await _join(request, db, who, context, table_path(context.table))


@get("/invite/{token:str}", name="cards_invite")
async def invite_page(db: DB, viewer: Viewer, who: WhoDep, token: FromPath[str]) -> Template:
    """An invitation: who is at the table and a button to take a free seat."""
    context = await access_table_by_invite(db, token, who)
    return page("cards/invite.html", viewer=viewer, token=token, **await body_context(db, context))


@post("/invite/{token:str}", name="cards_invite_join")
async def join_by_invite(request: AnyRequest, db: DB, who: WhoDep, token: FromPath[str]) -> Reply:
    """Take a free seat with the invite link."""
    context = await access_table_by_invite(db, token, who)
    return await _join(request, db, who, context, f"/cards/invite/{token}")


async def _join(
    request: AnyRequest, db: DB, who: Who, context: TableContext, refused_to: str
) -> Reply:
    """Take a free seat and go to the table; a refusal goes back to `refused_to`."""
    try:
        person, new_key = seated(request, who)
        joined = await do_join(db, runtime(request), context, person)
    except Refused as refusal:
        return refuse(request, refused_to, refusal)
    return done(request, table_path(context.table), joined_message(joined), new_key=new_key)


@post("/t/{table_id:str}/back", name="cards_take_back")
async def take_back(request: AnyRequest, db: DB, who: WhoDep, table_id: FromPath[str]) -> Reply:
    """Take my seat back from the stand-in bot after the turn timer ran out."""
    context = await access_table_for_seat(db, table_id, who)
    await do_take_back(db, runtime(request), context)
    return done(request, table_path(context.table), "You have your seat back.")


@post("/t/{table_id:str}/notebook", name="cards_notebook")
async def toggle_notebook(
    request: AnyRequest, db: DB, who: WhoDep, table_id: FromPath[str]
) -> Reply:
    """Show or hide my deduction notebook (`on=yes` or `on=no`)."""
    context = await access_table_for_seat(db, table_id, who)
    await do_notebook(db, context, flag(await fields_of(request), "on"))
    return done(request, table_path(context.table))


def _who_dependency() -> dict[str, Any]:
    return {"who": Provide(provide_who)}


router = Router(
    path="/cards",
    route_handlers=[
        lobby,
        play_solo,
        open_table,
        table_page,
        table_body,
        act,
        join_public,
        invite_page,
        join_by_invite,
        take_back,
        toggle_notebook,
        live.table_events,
        records.download_record,
        records.replay_page,
    ],
    dependencies=_who_dependency(),
)
