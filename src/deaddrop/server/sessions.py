"""Server-side sessions in the database, with ID rotation at log-in and no rows for guests.

Why server-side (not signed cookies): a log-out or a password change must really end a
session, and the session data never leaves the server. Litestar's stock backend writes on
every response and creates a row for every guest; this one writes only when the data
changed (or once a day, to push the expiry on), and never for an empty session.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from litestar.connection import ASGIConnection
from litestar.datastructures import Cookie, MutableScopeHeaders
from litestar.middleware import DefineMiddleware
from litestar.middleware.session.base import SessionMiddleware as LitestarSessionMiddleware
from litestar.middleware.session.server_side import (
    ServerSideSessionBackend,
    ServerSideSessionConfig,
)
from litestar.stores.base import Store
from litestar.types import Empty, HTTPScope, Message, Receive, Scope, ScopeSession, Send
from litestar.utils.dataclass import extract_dataclass_items

from deaddrop.server.db.request_session import close_request_session, request_session
from deaddrop.server.db.store import DatabaseStore
from deaddrop.server.overload import is_stream

ROTATE_KEY = "_rotate"
"""Set by log-in: the next response moves the session to a fresh ID (no session fixation)."""
DAY_KEY = "_day"
"""The UTC date the session was last written; a new day rewrites it and renews the expiry."""
_RAW_KEY = "deaddrop.session_raw"


def request_rotation(session: dict[str, Any]) -> None:
    """Ask for the session to move to a fresh ID when this response is sent."""
    session[ROTATE_KEY] = True


class SessionBackend(ServerSideSessionBackend):
    """Store sessions through the app's `sessions` store, economically and safely."""

    async def load_from_connection(
        self, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> dict[str, Any]:
        """Load the session and remember its stored bytes, to skip unchanged writes later."""
        session_id = connection.cookies.get(self.config.key)
        if not session_id:
            return {}
        store = self.config.get_store_from_app(connection.scope["app"])
        raw = await self._read(session_id, store, connection.scope)
        if raw is None:
            return {}
        cast(dict[str, Any], connection.scope)[_RAW_KEY] = raw
        return self.deserialize_data(raw)

    async def _read(self, session_id: str, store: Store, scope: Scope) -> bytes | None:
        """The stored session, through the request's own database session where it can be."""
        if not isinstance(store, DatabaseStore) or is_stream(cast(HTTPScope, scope)):
            # A live stream lasts as long as its page: it must not hold a connection so long.
            return await self.get(session_id, store=store)
        return await store.get_in(request_session(scope, store.sessionmaker), session_id)

    async def store_in_message(
        self,
        scope_session: ScopeSession,
        message: Message,
        connection: ASGIConnection[Any, Any, Any, Any],
    ) -> None:
        """Write the session if it changed, and set or clear the cookie to match."""
        scope = cast(dict[str, Any], connection.scope)
        store = self.config.get_store_from_app(connection.scope["app"])
        headers = MutableScopeHeaders.from_message(message)
        cookie_id = connection.cookies.get(self.config.key)
        data = {} if scope_session is Empty else dict(cast(dict[str, Any], scope_session))
        rotate = bool(data.pop(ROTATE_KEY, False))
        data.pop(DAY_KEY, None)
        if not data:
            # Nothing worth keeping (a guest, a log-out, flashes already shown): no row, no cookie.
            if cookie_id:
                await self.delete(cookie_id, store=store)
                headers.add("Set-Cookie", self._cookie("null", expires=0))
            return
        data[DAY_KEY] = datetime.now(UTC).date().isoformat()
        serialised = self.serialize_data(data, connection.scope)
        if rotate or not cookie_id:
            if cookie_id:
                await self.delete(cookie_id, store=store)
            session_id = self.generate_session_id()
        elif serialised == scope.get(_RAW_KEY):
            return
        else:
            session_id = cookie_id
        await self.set(session_id=session_id, data=serialised, store=store)
        headers.add("Set-Cookie", self._cookie(session_id))

    def _cookie(self, value: str, **extra: Any) -> str:
        params = dict(
            extract_dataclass_items(
                self.config, exclude_none=True, include=set(Cookie.__dict__.keys())
            )
        )
        return Cookie(value=value, key=self.config.key, **params, **extra).to_header(header="")


class SessionMiddleware(LitestarSessionMiddleware[SessionBackend]):
    """Litestar's session middleware, closing the request's database session at the end."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the request; then close the database session its handler did not close."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            await close_request_session(scope)


@dataclass
class SessionConfig(ServerSideSessionConfig):
    """Server-side session configuration using `SessionBackend`."""

    _backend_class = SessionBackend

    @property
    def middleware(self) -> DefineMiddleware:
        """The session middleware of this configuration."""
        return DefineMiddleware(SessionMiddleware, backend=self._backend_class(config=self))
