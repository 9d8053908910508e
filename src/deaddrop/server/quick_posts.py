"""Quick posts: a script's or a page's JSON post to a game's endpoints (`POST /api/…`) served
by its own handler past Litestar's generic request machinery (issue 15: the CSRF middleware,
dependency injection, the signature model and their clean-up took about a fifth of a vote's
CPU).

The full path of a POST is: the session middleware, the CSRF middleware, the route (a `Request`,
the handler's parameters resolved by dependency injection and checked against its signature, the
dependencies' clean-up), the handler, and its answer made into a response. A quick post takes
the same steps with the same code, minus what a handler marked quick (`QUICK_KEY`) has no use
for: its parameters are the request, its database session, the person, the clock and its path
parameters (strings), which are given to it directly.

- The CSRF token: the header's, checked by Litestar's own `CSRFMiddleware` against the cookie.
  A form's token in the body, a missing header or a mismatch goes the full way, which answers
  as always (403).
- The session: loaded and written back by the app's own session middleware (the same backend
  instance), around the handler, as on the full path.
- The person: `provide_viewer` and `provide_me`, the `viewer` and `me` dependencies themselves
  (a guest still gets its 401 from `provide_me`).
- The answer: the route handler's own `to_response`; an exception is answered by Litestar's
  exception middleware inside the session middleware, as on the full path. A plain JSON answer
  (a `Response` of JSON and nothing else, from a handler no layer adds to) is sent as the two
  messages `to_response` would make of it, without the objects it makes on the way (2% of a
  vote's instructions): the same status, body and headers (`plain_answer`).
- The database session is closed before the answer leaves, as `provide_db` closes it.

A route may also have a plain way (`PLAIN_KEY`: a Station save's or chat post's, see
station/play/plain_saves.py), tried first, before the session is loaded: it reads what it
needs itself and answers the usual case; anything else it leaves, having written nothing, to
the steps above.

Only JSON bodies go quick: a form posts its CSRF token in the body and answers with a flash and
a redirect, and its handlers parse the form themselves. `QUICK_POSTS=0` turns quick posts off.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, cast

from litestar import MediaType, Request, Response
from litestar._asgi.utils import wrap_in_exception_handler
from litestar.config.csrf import CSRFConfig
from litestar.enums import ScopeType
from litestar.handlers import HTTPRouteHandler
from litestar.middleware.csrf import CSRFMiddleware
from litestar.serialization import get_serializer
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from litestar.utils.scope.state import ScopeState

from deaddrop.server.accounts.auth import provide_me, provide_viewer
from deaddrop.server.clock import Clock
from deaddrop.server.cookies import CSRF_COOKIE, SESSION_COOKIE
from deaddrop.server.db.request_session import close_request_session, request_session
from deaddrop.server.errors import API_PREFIX
from deaddrop.server.hosting.memo import Memo
from deaddrop.server.sessions import SessionBackend, SessionMiddleware

QUICK_KEY = "quick_post"
"""A route handler's `opt` key: its JSON posts may be served quick."""
PLAIN_KEY = "plain_post"
"""A quick route handler's `opt` key: its plain way (`PlainPost`), tried first."""
PlainPost = Callable[
    [Request[Any, Any, Any], SessionBackend, Clock], Awaitable[Response[Any] | None]
]
"""A route's plain way of serving a quick post, before the session is loaded: (the request,
the session backend, the clock) → its answer, having read what it needs itself; None when the
request is not one it serves plainly (nothing done: it goes on to the handler, which answers
it)."""
GIVEN = frozenset({"request", "db", "me", "clock"})
"""The parameters a quick handler may have besides its path parameters (strings)."""
_HANDLER_KEY = "deaddrop.quick_handler"


@dataclass(frozen=True, slots=True)
class QuickHandler:
    """A route handler as a quick post calls it."""

    handler: HTTPRouteHandler
    parameters: tuple[str, ...]
    """The names of its function's parameters, in order."""
    plain: bool
    """Whether its plain JSON answers may be sent as such (`plain_answer`): no layer adds a
    header, a cookie, an after-request hook, a background task, a return DTO, a response class
    or a type encoder of its own to what it returns."""
    plain_post: PlainPost | None = None
    """Its plain way, when it has one and its answers may be sent as such."""


def quick_handler(handler: HTTPRouteHandler) -> QuickHandler | None:
    """`handler` as a quick post calls it; None unless it is marked quick and a quick post can
    give it everything the full path would (no guards or hooks, only `GIVEN` parameters)."""
    if not handler.opt.get(QUICK_KEY) or handler.has_sync_callable:
        return None
    if handler.resolve_guards() or handler.resolve_before_request():
        return None
    if handler.resolve_after_response() is not None:
        return None
    parameters = tuple(inspect.signature(handler.fn).parameters)
    typed = [found for path in handler.paths for found in _path_parameters(path)]
    strings = {name for name, kind in typed if kind == "str"}
    if any(kind != "str" for _name, kind in typed):
        return None  # the full path converts it (an int, a UUID): a quick post would not
    if any(name not in GIVEN and name not in strings for name in parameters):
        return None
    plain = _adds_nothing(handler)
    return QuickHandler(handler, parameters, plain, handler.opt.get(PLAIN_KEY) if plain else None)


def _adds_nothing(handler: HTTPRouteHandler) -> bool:
    """Whether `to_response` makes of the handler's `Response` exactly what it holds."""
    return (
        not handler.resolve_response_headers()
        and not handler.resolve_response_cookies()
        and not any(getattr(layer, "after_request", None) for layer in handler.ownership_layers)
        and handler.background is None
        and handler.resolve_return_dto() is None
        and handler.resolve_response_class() is Response
        and not handler.resolve_type_encoders()
    )


def plain_answer(reply: object) -> tuple[Message, Message] | None:
    """The ASGI messages Litestar's `to_response` makes of `reply` when it is a plain JSON
    `Response` (its content as JSON, its status, `content-type` and `content-length`, nothing
    else), to be sent as they are; None for any other reply (it goes through `to_response`)."""
    if type(reply) is not Response or reply.media_type != MediaType.JSON:
        return None
    if reply.headers or reply.cookies or reply.background is not None:
        return None
    status = reply.status_code
    # No body at all for these (Litestar's own rule), no encoders of the reply's own.
    if status is None or status < 200 or status in (204, 304) or reply.response_type_encoders:
        return None
    body = reply.render(reply.content, MediaType.JSON, get_serializer())
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    start: Message = {"type": "http.response.start", "status": status, "headers": headers}
    return start, {"type": "http.response.body", "body": body, "more_body": False}


def _path_parameters(path: str) -> list[tuple[str, str]]:
    """A path's parameters, each with its type (`{game_id:str}` → `("game_id", "str")`)."""
    found = []
    for part in path.split("/"):
        if part.startswith("{") and part.endswith("}"):
            name, _, kind = part[1:-1].partition(":")
            found.append((name.strip(), kind.strip()))
    return found


def quick_posts(app: ASGIApp, backend: SessionBackend, csrf: CSRFConfig, clock: Clock) -> ASGIApp:
    """ASGI middleware factory: JSON posts to quick handlers served quick (`clock` is the app's
    `clock` dependency), any other request passed on to `app` (the session middleware)."""
    checker = _KnownTokens(app, csrf)
    handlers: dict[int, QuickHandler | None] = {}

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        await _serve(scope, receive, send, clock)

    # The session loaded and written back as on the full path, by the same backend; an
    # exception answered inside it, as the route's own exception middleware answers it there.
    quick = SessionMiddleware(app=wrap_in_exception_handler(serve), backend=backend)

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        found = _quick_request(scope, checker, handlers)
        if found is None:
            await app(scope, receive, send)
            return
        if found.plain_post is not None and await _served_plainly(
            found.plain_post, scope, receive, send, backend, clock
        ):
            return
        cast(dict[str, Any], scope)[_HANDLER_KEY] = found
        await quick(scope, receive, send)

    return middleware


class _KnownTokens(CSRFMiddleware):
    """Litestar's CSRF check, remembering the tokens whose signature it has checked: a token's
    HMAC is the same at every post of its browser (two of them a post, 2% of a vote's CPU)."""

    KEPT = 4096
    """Tokens remembered at most (the least recently used forgotten first): a browser's token
    is one a session, and a forged one is never remembered."""

    def __init__(self, app: ASGIApp, config: CSRFConfig) -> None:
        super().__init__(app, config)
        self._signed: Memo[str, str] = Memo(self.KEPT)

    def _decode_csrf_token(self, token: str) -> str | None:
        """The token's secret part, if its signature holds (Litestar's own check, once)."""
        known = self._signed.get(token)
        if known is not None:
            return known
        decoded = super()._decode_csrf_token(token)
        if decoded is not None:
            self._signed.put(token, decoded)
        return decoded


def _quick_request(
    scope: Scope, checker: CSRFMiddleware, handlers: dict[int, QuickHandler | None]
) -> QuickHandler | None:
    """The quick handler of a JSON post to the API carrying a session cookie and a CSRF header
    the CSRF middleware would let through; None for any other request (it goes the full way)."""
    if scope["type"] != ScopeType.HTTP or scope["method"] != "POST":
        return None
    route = scope.get("route_handler")
    if not isinstance(route, HTTPRouteHandler) or not scope["path"].startswith(API_PREFIX + "/"):
        return None
    if id(route) not in handlers:
        handlers[id(route)] = quick_handler(route)
    found = handlers[id(route)]
    if found is None:
        return None
    request: Request[Any, Any, Any] = Request(scope)
    if request.content_type[0] != MediaType.JSON:
        return None
    cookies = request.cookies  # parsed once per request, kept in the scope
    cookie, header = cookies.get(CSRF_COOKIE), request.headers.get(checker.config.header_name)
    if not cookie or not header or not cookies.get(SESSION_COOKIE):
        return None
    # Litestar's own check, with the app's CSRF configuration: a mismatch goes the full way.
    if not checker._csrf_tokens_match(header, cookie):
        return None
    ScopeState.from_scope(scope).csrf_token = header  # as the CSRF middleware leaves it
    return found


async def _served_plainly(
    plain_post: PlainPost,
    scope: Scope,
    receive: Receive,
    send: Send,
    backend: SessionBackend,
    clock: Clock,
) -> bool:
    """Serve the request its route's plain way, if that serves it; whether it did. Its
    database session is closed either way (the full path opens its own)."""
    try:
        reply = await plain_post(Request(scope, receive, send), backend, clock)
    finally:
        await close_request_session(scope)
    answer = None if reply is None else plain_answer(reply)
    if answer is None:
        return False
    for message in answer:
        await send(message)
    return True


async def _serve(scope: Scope, receive: Receive, send: Send, clock: Clock) -> None:
    """The route's work for a quick post: the handler called with what the full path would
    resolve for it, its answer made by its own `to_response`."""
    found: QuickHandler = cast(dict[str, Any], scope)[_HANDLER_KEY]
    handler = found.handler
    request = handler.resolve_request_class()(scope=scope, receive=receive, send=send)
    try:
        arguments = await _arguments(found, request, clock)
        reply = await handler.fn(**arguments)
        plain = plain_answer(reply) if found.plain else None
        if plain is None:
            app = scope["litestar_app"]
            response = await handler.to_response(app=app, data=reply, request=request)
    finally:
        # As `provide_db` closes it on the full path: before the answer leaves.
        await close_request_session(scope)
    if plain is None:
        await response(scope, receive, send)
        return
    for message in plain:
        await send(message)


async def _arguments(
    found: QuickHandler, request: Request[Any, Any, Any], clock: Clock
) -> dict[str, Any]:
    """The handler's arguments, as its dependencies give them on the full path."""
    scope = request.scope
    db = request_session(scope, scope["litestar_app"].state["sessionmaker"])
    given: dict[str, Any] = {}
    for name in found.parameters:
        if name == "request":
            given[name] = request
        elif name == "db":
            given[name] = db
        elif name == "me":
            given[name] = await provide_me(request, await provide_viewer(request, db))
        elif name == "clock":
            given[name] = clock
        else:
            given[name] = str(scope["path_params"][name])
    return given
