"""A game page's Server-Sent Events: `/games/{id}/events` (a seat) and `/watch/{token}/events`.

The journal decides which events wake a listener (the engine's audience, by seat). What is sent
is what changed, made once per audience (pushes.py: a Floor message, the Floor's public
regions, a badge), or else the page's live part re-rendered at delivery time from the
listener's own `view` and the chat panels `can_read` allows on the current state, so a reader
gains the Archive when burned (S30) and every channel after the game (S26) without anything
secret reaching anyone else.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Sequence

from litestar import Router, get
from litestar.channels import ChannelsPlugin
from litestar.exceptions import NotFoundException
from litestar.params import FromPath, FromQuery
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import ServerSentEvent
from litestar.response.sse import ServerSentEventMessage
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.accounts.auth import Me, Viewer
from deaddrop.server.accounts.models import User
from deaddrop.server.db.dependencies import DB
from deaddrop.server.live.fanout import Batch, fanout_of
from deaddrop.server.live.journal import EVERYONE, Listener
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.live.shutdown import shutdown_event
from deaddrop.server.live.sse import (
    BatchAudience,
    BatchRenderer,
    Feed,
    fanned_stream,
    parse_last_event_id,
)
from deaddrop.server.station.game.access import (
    GameContext,
    access_game_for_player,
    access_game_for_spectator,
)
from deaddrop.server.station.game.http import AnyRequest
from deaddrop.server.station.game.models import StationGame, StationSeat
from deaddrop.server.station.live.looks import LOOKS_KEY
from deaddrop.server.station.live.now import Reads, now_of
from deaddrop.server.station.live.pushes import Page, pushes
from deaddrop.server.station.live.stream import stream_of
from deaddrop.server.station.tabs.badges import Reader, tabs_showing
from deaddrop.server.station.tabs.context import SPECTATOR_TABS, TABS
from deaddrop.server.station.tabs.routes import tab_values
from deaddrop.server.station.tabs.seen import listener_of

START, END = "<!--live-->", "<!--/live-->"
"""The markers around the part of a tab page that live updates replace."""


def live_part(html: str) -> str:
    """The part of a rendered tab page between the live markers."""
    start = html.index(START) + len(START)
    return html[start : html.index(END, start)]


async def _fresh_context(db: AsyncSession, old: GameContext) -> GameContext | None:
    """The listener's game and seat as they are now; None once the seat changed hands (S40)
    or the spectator link it came through was closed."""
    game = await db.get(StationGame, old.game.id)
    if game is None:
        return None
    user = None if old.user is None else await db.get(User, old.user.id)
    if old.seat_row is None:
        # A spectator came in through a link: once the host closes or renews it, the page
        # behind the old link is no longer theirs to watch.
        token = old.game.spectator_token
        if token is None or game.spectator_token != token:
            return None
        return GameContext(game, user, None)
    seat = await db.get(StationSeat, old.seat_row.id)
    if seat is None or user is None or seat.user_id != user.id:
        return None  # replaced: the newcomer's secrets are not the old holder's to see
    return GameContext(game, user, seat)


async def render_live(
    request: AnyRequest,
    db: AsyncSession,
    context: GameContext,
    tab: str,
    base: str,
    *,
    looked: bool = True,
) -> str:
    """The live part of a tab as its listener would see it on a fresh load now."""
    values = await tab_values(db, context, tab, base, looked=looked)
    engine = request.app.template_engine
    assert engine is not None
    # A push must not consume the flash messages the next full page load is to show.
    html: str = engine.get_template(f"station/tabs/{tab}.html").render(
        request=request, viewer=context.user, get_flashes=_no_flashes, **values
    )
    return live_part(html)


def _no_flashes(*_args: object, **_kwargs: object) -> list[object]:
    return []


def page_renderer(request: AnyRequest, context: GameContext, tab: str, base: str) -> BatchRenderer:
    """What changed on the page for each batch of events the listener may see: fragments made
    once per audience (pushes.py), else its live part re-rendered for this reader."""
    reads = reads_of(request)
    zone = context.game.time_zone if context.user is None else context.user.time_zone
    templates = request.app.template_engine
    assert isinstance(templates, JinjaTemplateEngine)
    page = Page(context, tab, zone, templates, reads, request.app.state[LOOKS_KEY])

    async def render(
        batch: Batch, rows: Sequence[LiveEvent]
    ) -> list[ServerSentEventMessage] | None:
        now = await now_of(batch, reads, context.game.id)
        if not now.still_theirs(context):
            return None  # end the stream: a reconnect is refused (404) and stops
        found = None if now.status == "over" else await pushes(batch, page, rows)
        if found is not None:
            return found
        async with reads.session() as db:
            fresh = await _fresh_context(db, context)
            if fresh is None:
                return None
            html = await render_live(request, db, fresh, tab, base, looked=shows(fresh, rows))
        return [ServerSentEventMessage(data=html, event="page")]  # the stream numbers it

    def shows(fresh: GameContext, rows: Sequence[LiveEvent]) -> bool:
        """Whether a push brings this tab something its badge would count: only then is it
        recorded as looked at (most pushes concern other tabs; this spares a write each)."""
        if fresh.seat is None:
            return False
        reader = Reader(fresh.seat, codename="")  # one's own doings too: harmless here
        return any(tab in tabs_showing(row.kind, row.payload, reader) for row in rows)

    return render


def reads_of(request: AnyRequest) -> Reads:
    """How the app's live pages read the database."""
    return Reads(request.app.state.sessionmaker, fanout_of(request.app).turns)


def page_audience(request: AnyRequest, context: GameContext) -> BatchAudience:
    """Who the page's listener reads as now: its seat, or every event once the game is over
    (S26); read once per batch for every page of the game in this process."""
    reads = reads_of(request)

    async def audience(batch: Batch) -> Listener:
        now = await now_of(batch, reads, context.game.id)
        if context.seat is None or not now.still_theirs(context):
            return listener_of(context)  # gone: the renderer ends the stream
        return EVERYONE if now.status == "over" else context.seat

    return audience


def page_stream(
    request: AnyRequest, context: GameContext, tab: str, base: str, after: int | None
) -> AsyncGenerator[ServerSentEventMessage, None]:
    """The SSE messages of one open game page (its ids: the listener's cursor)."""
    channels = request.app.plugins.get(ChannelsPlugin)
    sessionmaker: async_sessionmaker[AsyncSession] = request.app.state.sessionmaker
    fanout = fanout_of(request.app)
    feed = Feed(channels, sessionmaker, stream_of(context.game.public_id), fanout)
    render = page_renderer(request, context, tab, base)
    audience = page_audience(request, context)
    stop = shutdown_event(request.app)
    listener = listener_of(context)
    return fanned_stream(
        feed, listener=listener, after=after, render=render, audience=audience, stop=stop
    )


def _after(request: AnyRequest) -> int | None:
    """A reconnect's Last-Event-ID, else the cursor the page was built at (both the listener's
    own count of what it may see; 400 past any cursor)."""
    after = parse_last_event_id(request.headers.get("last-event-id"))
    if after is None:
        after = parse_last_event_id(request.query_params.get("after"))
    return after


async def _respond(
    request: AnyRequest, db: DB, context: GameContext, tab: str, base: str
) -> ServerSentEvent:
    stream = page_stream(request, context, tab, base, _after(request))
    await db.close()  # the stream reads with sessions of its own; free this connection
    return ServerSentEvent(stream, headers={"Cache-Control": "no-store"})


@get("/games/{game_id:str}/events", name="station_events")
async def game_events(
    request: AnyRequest, db: DB, me: Me, game_id: FromPath[str], tab: FromQuery[str] = "cable"
) -> ServerSentEvent:
    """Server-Sent Events of one game page for the player's own seat."""
    if tab not in dict(TABS):
        raise NotFoundException("There is no such tab.")
    context = await access_game_for_player(db, game_id, me)
    return await _respond(request, db, context, tab, f"/games/{game_id}")


@get("/watch/{token:str}/events", name="station_watch_events")
async def watch_events(
    request: AnyRequest, db: DB, viewer: Viewer, token: FromPath[str], tab: FromQuery[str] = "cable"
) -> ServerSentEvent:
    """Server-Sent Events behind a spectator link: public events only (S28)."""
    if tab not in SPECTATOR_TABS:
        raise NotFoundException("There is no such tab.")
    context = await access_game_for_spectator(db, token, viewer)
    return await _respond(request, db, context, tab, f"/watch/{token}")


router = Router(path="/", route_handlers=[game_events, watch_events])
