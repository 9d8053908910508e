"""`create_app(settings)`: the Litestar application with its routes, stores and middleware.

A new area of the site (a game, the lobby) plugs in by adding its `Router` to `ROUTERS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

from litestar import Litestar, Router
from litestar.config.csrf import CSRFConfig
from litestar.datastructures import State
from litestar.di import Provide
from litestar.middleware import DefineMiddleware
from litestar.plugins.flash import FlashConfig, FlashPlugin
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.static_files import create_static_files_router
from litestar.stores.base import Store
from litestar.stores.redis import RedisStore
from litestar.template import TemplateConfig
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from deaddrop.server import favicon
from deaddrop.server.accounts import routes as account_routes
from deaddrop.server.accounts.auth import USER_ID_KEY, provide_me, provide_viewer
from deaddrop.server.accounts.models import User
from deaddrop.server.accounts.throttle import LoginThrottle
from deaddrop.server.api import routes as api_routes
from deaddrop.server.cards import routes as cards_routes
from deaddrop.server.cards.runtime import Runtime, bot_delay_from_env
from deaddrop.server.clock import Clock, JumpingClock, SystemClock
from deaddrop.server.cookies import CSRF_COOKIE, SESSION_COOKIE
from deaddrop.server.db.dependencies import provide_db
from deaddrop.server.db.engine import create_engine, create_sessionmaker
from deaddrop.server.db.store import DatabaseStore
from deaddrop.server.errors import EXCEPTION_HANDLERS
from deaddrop.server.jobs import Jobs, Wanted, bot_timing, standard_jobs
from deaddrop.server.live.known_positions import KNOWN_POSITIONS_KEY, KnownPositions
from deaddrop.server.live.wakeup import (
    WAKEUPS_KEY,
    Wakeups,
    channels_plugin,
    register_broker,
    unregister_broker,
)
from deaddrop.server.nul_guard import refuse_nul
from deaddrop.server.overload import Gate, Limits, shed_load
from deaddrop.server.pages import routes as page_routes
from deaddrop.server.quick_posts import quick_posts
from deaddrop.server.render import jinja_environment
from deaddrop.server.security_headers import add_security_headers
from deaddrop.server.sessions import NamedRow, SessionConfig
from deaddrop.server.settings import Settings
from deaddrop.server.station.chat import routes as station_chat
from deaddrop.server.station.chat.rate import CHAT_RATE_KEY, chat_rate
from deaddrop.server.station.host import routes as station_host
from deaddrop.server.station.live import routes as live_pages
from deaddrop.server.station.live.looks import LOOKS_KEY
from deaddrop.server.station.live.state import live_state
from deaddrop.server.station.lobby import routes as station_lobby
from deaddrop.server.station.play import api as station_api
from deaddrop.server.station.play import routes as station_routes
from deaddrop.server.station.practice import routes as practice_routes
from deaddrop.server.station.standins import routes as standins
from deaddrop.server.station.tabs import routes as tab_routes
from deaddrop.server.station.tabs.known_pages import KnownPages, serve_known_pages
from deaddrop.server.station.tabs.memos import PAGE_MEMOS_KEY, PageMemos

KNOWN_PAGES_KEY = "known_pages"
"""Where `app.state` keeps the app's known pages (station/tabs/known_pages.py)."""
STATIC_DIR = Path(__file__).parent / "static"
ROUTERS: tuple[Router, ...] = (page_routes.router, account_routes.router, api_routes.router)
ROUTERS += (favicon.router,)  # the site's icon
ROUTERS += (tab_routes.router,)  # Station: the five tabs and the spectator's view
# Station: lobby, the day's saves, the host's tools, JSON views and the scenario file.
ROUTERS += (station_lobby.router, station_routes.router, station_host.router, station_api.router)
ROUTERS += (station_chat.router, live_pages.router)  # Station: chat, whispers, live pages
ROUTERS += (standins.router,)  # Station: stand-ins for the absent, seats handed to bots
ROUTERS += (practice_routes.router,)  # Station: practice games against bots
ROUTERS += (cards_routes.router,)  # Cards: lobby, tables, moves, live stream, records
SESSION_MAX_AGE = 30 * 24 * 3600
# Forms are small; the largest later upload (a scenario file) stays well under this.
MAX_BODY_BYTES = 1_000_000
logger = logging.getLogger("deaddrop.server")
Lifespan = Callable[[Litestar], AbstractAsyncContextManager[None]]


def create_app(
    settings: Settings,
    *,
    clock: Clock | None = None,
    pouch_runner: bool = True,
    mailer: bool = True,
    bot_runner: bool = True,
) -> Litestar:
    """The web application for `settings`; the database must already be migrated.

    `clock` is where games read the time (tests pass a manual one); `pouch_runner` runs the
    Pouch runner inside this process (off in tests that drive the runner themselves);
    `mailer` runs the mailer inside it when SMTP is configured (`settings.mail`); `bot_runner`
    plays the Station bot seats (off in tests that drive it themselves).
    """
    game_clock: Clock = clock or SystemClock()
    engine = create_engine(settings)
    in_sessions = _in_sessions(settings)
    sessionmaker = create_sessionmaker(engine, in_sessions)
    throttle_store = _throttle_store(settings, sessionmaker)
    throttle = _login_throttle(settings, throttle_store)
    templates = TemplateConfig(instance=JinjaTemplateEngine.from_environment(jinja_environment()))
    wanted = Wanted(pouch_runner=pouch_runner, mailer=mailer, bot_runner=bot_runner)
    known_pages = KnownPages(settings.known_pages_mb * 1024 * 1024)
    return Litestar(
        route_handlers=[
            *ROUTERS,
            create_static_files_router(path="/static", directories=[STATIC_DIR]),
        ],
        dependencies=_dependencies(throttle, game_clock),
        stores={
            "sessions": DatabaseStore(sessionmaker, "sessions"),
            "login-throttle": throttle_store,
        },
        middleware=_middleware(settings, known_pages, game_clock),
        before_send=[add_security_headers],  # every response, unmatched addresses included
        csrf_config=_csrf(settings),
        template_config=templates,
        plugins=[
            FlashPlugin(FlashConfig(template_config=templates)),
            # Live updates: wake-ups in memory in one process, over Redis when REDIS_URL is set.
            channels_plugin(settings.redis_url),
        ],
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=_lifespans(engine, _background(sessionmaker, settings, game_clock, wanted)),
        on_startup=[register_broker],
        on_shutdown=[unregister_broker],
        state=State(
            {
                **_shared(settings, engine, sessionmaker, game_clock, in_sessions),
                KNOWN_PAGES_KEY: known_pages,
            }
        ),
        request_max_body_size=MAX_BODY_BYTES,
        debug=settings.debug,
        openapi_config=None,
    )


def _middleware(
    settings: Settings, known_pages: KnownPages, clock: Clock
) -> list[DefineMiddleware]:
    """What every matched request passes through, outermost first."""
    # Load is shed first, before any work; NUL is refused before the session (or any
    # handler) takes it to the database; an unchanged tab page is sent again before the
    # session and the handler do their work; a JSON save goes quick past the generic work.
    sessions = _sessions(settings).middleware
    quick = [] if not settings.quick_posts else [_quick_posts(settings, sessions, clock)]
    return [
        DefineMiddleware(shed_load, gate=Gate(_limits(settings))),
        DefineMiddleware(refuse_nul),
        DefineMiddleware(serve_known_pages, pages=known_pages),
        *quick,
        sessions,
    ]


def _quick_posts(settings: Settings, sessions: DefineMiddleware, clock: Clock) -> DefineMiddleware:
    """Quick posts (server/quick_posts.py), with the session middleware's own backend, the
    app's CSRF configuration and its `clock` dependency."""
    backend = sessions.kwargs["backend"]
    return DefineMiddleware(quick_posts, backend=backend, csrf=_csrf(settings), clock=clock)


def _in_sessions(settings: Settings) -> dict[str, Any]:
    """What the app keeps both in `app.state` and in its sessions' `db.info`: the wake-ups
    (writers with or without a request), its pages' memos and its readers' known journal
    positions (this app's own, never another app's in the same process) and its chat's flood
    limit."""
    return {
        WAKEUPS_KEY: Wakeups(),
        PAGE_MEMOS_KEY: PageMemos(),
        KNOWN_POSITIONS_KEY: KnownPositions(),
        CHAT_RATE_KEY: chat_rate(settings),
    }


def _shared(
    settings: Settings,
    engine: AsyncEngine,
    sessionmaker: async_sessionmaker[AsyncSession],
    clock: Clock,
    in_sessions: dict[str, Any],
) -> dict[str, Any]:
    """What the app keeps in `app.state` for its handlers, streams and jobs."""
    return {
        "settings": settings,
        "engine": engine,
        "sessionmaker": sessionmaker,
        "clock": clock,
        "cards": Runtime(bot_delay=bot_delay_from_env()),  # the Cards area's bot pace
        **in_sessions,
        **live_state(sessionmaker),  # live pages: the games' hubs, turns at the DB, looks
    }


def _dependencies(throttle: LoginThrottle, clock: Clock) -> dict[str, Provide]:
    """What a handler may ask for by name."""
    return {
        "db": Provide(provide_db),
        "viewer": Provide(provide_viewer),
        "me": Provide(provide_me),
        "throttle": Provide(lambda: throttle, sync_to_thread=False),
        "clock": Provide(lambda: clock, sync_to_thread=False),
    }


def _limits(settings: Settings) -> Limits:
    """How much this process takes on at once before it sheds load."""
    return Limits(requests=settings.max_requests_in_flight, streams=settings.max_live_streams)


def _throttle_store(settings: Settings, sessionmaker: async_sessionmaker[AsyncSession]) -> Store:
    """Where login attempts are counted: Redis when set (shared by processes), else the DB."""
    if settings.redis_url:
        return RedisStore.with_client(settings.redis_url, namespace="deaddrop-login-throttle")
    return DatabaseStore(sessionmaker, "login-throttle")


def _login_throttle(settings: Settings, store: Store) -> LoginThrottle:
    """The login throttle with the limits of `settings`."""
    return LoginThrottle(
        store=store,
        per_user=settings.login_attempts_per_user,
        per_ip=settings.login_attempts_per_ip,
        window_seconds=settings.login_window_seconds,
    )


def _sessions(settings: Settings) -> SessionConfig:
    """Server-side sessions in the `sessions` store, behind a cookie."""
    return SessionConfig(
        # The signed-in account comes in the session row's own statement (sessions.py).
        named_row=NamedRow(User, USER_ID_KEY),
        store="sessions",
        key=SESSION_COOKIE,
        max_age=SESSION_MAX_AGE,
        secure=settings.secure_cookies,
        samesite="lax",
        exclude=["/static/"],
    )


def _csrf(settings: Settings) -> CSRFConfig:
    """CSRF tokens on every form post."""
    return CSRFConfig(
        secret=settings.secret_key,
        cookie_name=CSRF_COOKIE,
        cookie_secure=settings.secure_cookies,
        cookie_httponly=True,
        exclude=["/static/"],
    )


def _dispose_on_shutdown(engine: AsyncEngine) -> Lifespan:
    """Close the database pool when the app stops (after the background work has stopped)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await engine.dispose()

    return lifespan


def _lifespans(engine: AsyncEngine, background: Lifespan) -> list[Lifespan]:
    """What the app starts and stops, stopped in reverse order: the background work first,
    then the looks still waiting are written, then the database pool closes."""
    return [_dispose_on_shutdown(engine), _looks_written_on_shutdown, background]


@contextlib.asynccontextmanager
async def _looks_written_on_shutdown(app: Litestar) -> AsyncIterator[None]:
    """At shutdown, once the background work has stopped, write the looks still waiting."""
    try:
        yield
    finally:
        await app.state[LOOKS_KEY].all_written()


def _background(
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    game_clock: Clock,
    wanted: Wanted,
) -> Lifespan:
    """The work the app does between requests (server/jobs.py), each job in `app.state`."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        cards: Runtime = app.state.cards
        timing = bot_timing(settings)
        jobs = Jobs(standard_jobs(sessionmaker, game_clock, settings.mail, cards, wanted, timing))
        for job in jobs.jobs:
            app.state[job.name] = job.worker
        async with jobs.running(), _woken_on_jumps(game_clock, jobs):
            yield

    return lifespan


@contextlib.asynccontextmanager
async def _woken_on_jumps(clock: Clock, jobs: Jobs) -> AsyncIterator[None]:
    """With a clock that jumps (the browser tests' offset clock), wake the jobs at each jump."""
    if not isinstance(clock, JumpingClock):
        yield
        return
    task = asyncio.create_task(clock.watch(jobs.wake))
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
