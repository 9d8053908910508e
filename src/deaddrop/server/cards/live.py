"""The table's event stream: one seat's own view, pushed as an HTML fragment (C12).

The journal decides which events wake this listener (the engine's audience); what is sent is
re-rendered from `view(state, seat)` at delivery time, so nothing reaches a seat that its
view does not hold. Reconnecting browsers replay from `Last-Event-ID`.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence

from litestar import get
from litestar.channels import ChannelsPlugin
from litestar.di import NamedDependency
from litestar.params import FromPath
from litestar.response import ServerSentEvent
from litestar.response.sse import ServerSentEventMessage
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.cards.access import TableContext, access_table_for_watcher, seats_of
from deaddrop.server.cards.fragments import body_context, render_body
from deaddrop.server.cards.identity import Who
from deaddrop.server.cards.models import CardsTable
from deaddrop.server.cards.table_state import stream_of
from deaddrop.server.db.dependencies import DB
from deaddrop.server.hosting.forms import AnyRequest
from deaddrop.server.live.fanout import fanout_of
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.live.shutdown import shutdown_event
from deaddrop.server.live.sse import Renderer, live_stream, parse_last_event_id

WhoDep = NamedDependency[Who]


def seat_renderer(request: AnyRequest, table_id: int, seat: int | None) -> Renderer:
    """Render, for one seat, the table as it is now (the stream numbers it by the seat's own
    cursor: how many events it may see, never the table's count of everyone's)."""

    async def render(db: AsyncSession, rows: Sequence[LiveEvent]) -> list[ServerSentEventMessage]:
        table = await db.get(CardsTable, table_id)
        if table is None:
            return []
        seats = await seats_of(db, table)
        mine = next((row for row in seats if row.seat == seat), None)
        html = render_body(request, await body_context(db, TableContext(table, seats, mine)))
        return [ServerSentEventMessage(data=html, event="table")]  # the stream numbers it

    return render


def table_stream(
    request: AnyRequest, context: TableContext, after: int | None
) -> AsyncGenerator[ServerSentEventMessage, None]:
    """The SSE messages of one listener: its seat's events, or a watcher's public ones."""
    channels = request.app.plugins.get(ChannelsPlugin)
    sessionmaker: async_sessionmaker[AsyncSession] = request.app.state.sessionmaker
    render = seat_renderer(request, context.table.id, context.seat)
    stop = shutdown_event(request.app)
    stream = stream_of(context.table)
    fanout = fanout_of(request.app)
    return live_stream(
        channels, sessionmaker, stream, context.seat, after, render, stop=stop, fanout=fanout
    )


@get("/t/{table_id:str}/events", name="cards_events")
async def table_events(
    request: AnyRequest, db: DB, who: WhoDep, table_id: FromPath[str]
) -> ServerSentEvent:
    """Server-Sent Events for this person's seat (a watcher of a public table: public only)."""
    context = await access_table_for_watcher(db, table_id, who)
    # A reconnect names the last cursor it saw; a fresh page the cursor it was built at (400
    # past any cursor).
    after = parse_last_event_id(request.headers.get("last-event-id"))
    if after is None:
        after = parse_last_event_id(request.query_params.get("after"))
    stream = table_stream(request, context, after)
    # The stream reads with sessions of its own; do not hold this request's connection open.
    await db.close()
    return ServerSentEvent(stream, headers={"Cache-Control": "no-store"})
