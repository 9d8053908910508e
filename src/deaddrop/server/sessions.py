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
from sqlalchemy import Select

from deaddrop.server.db.prefetch import companion_of
from deaddrop.server.db.request_session import close_request_session, request_session
from deaddrop.server.db.store import DatabaseStore
from deaddrop.server.overload import is_stream

ROTATE_KEY = "_rotate"
"""Set by log-in: the next response moves the session to a fresh ID (no session fixation)."""
DAY_KEY = "_day"
"""The UTC date the session was last written; a new day rewrites it and renews the expiry."""
_RAW_KEY = "deaddrop.session_raw"
_ROW_KEY = "deaddrop.session_named_row"


def request_rotation(session: dict[str, Any]) -> None:
    """Ask for the session to move to a fresh ID when this response is sent."""
    session[ROTATE_KEY] = True


REMEMBERED_SESSIONS = 100_000
"""Session IDs whose named row this process remembers at most (then it starts afresh)."""


@dataclass(frozen=True)
class NamedRow:
    """The row a session's data names by id (the signed-in account): read in the same
    statement as the session's own row, into the request's database session, where the
    handler then finds it without a statement of its own."""

    model: type[Any]
    """The mapped class of the row."""
    key: str
    """The session data's key holding the row's id."""


class SessionBackend(ServerSideSessionBackend):
    """Store sessions through the app's `sessions` store, economically and safely."""

    def __init__(self, config: ServerSideSessionConfig) -> None:
        super().__init__(config)
        self.named_row: NamedRow | None = getattr(config, "named_row", None)
        # A session ID names one row for its whole life (log-in and log-out move the session
        # to a fresh ID), so which row a known ID names can be remembered; the session's row
        # and the named row are still read afresh on every request, so a log-out elsewhere, an
        # expiry or a password change takes effect at once.
        self.names: dict[str, int] = {}

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
        data = self.deserialize_data(raw)
        named = data.get(self.named_row.key) if self.named_row else None
        if isinstance(named, int) and self.names.get(session_id) != named:
            if len(self.names) >= REMEMBERED_SESSIONS:
                self.names.clear()
            self.names[session_id] = named
        return data

    async def _read(self, session_id: str, store: Store, scope: Scope) -> bytes | None:
        """The stored session, through the request's own database session where it can be,
        with the row it names when that is known."""
        if not isinstance(store, DatabaseStore) or is_stream(cast(HTTPScope, scope)):
            # A live stream lasts as long as its page: it must not hold a connection so long.
            return await self.get(session_id, store=store)
        db = request_session(scope, store.sessionmaker)
        named = self.names.get(session_id)
        if self.named_row is None or named is None:
            return await store.get_in(db, session_id)
        model = self.named_row.model
        raw, row = await store.get_with_row(db, session_id, model, named, _companion(scope, named))
        cast(dict[str, Any], scope)[_ROW_KEY] = row  # held for the request's handler
        return raw

    async def store_in_message(
        self,
        scope_session: ScopeSession,
        message: Message,
        connection: ASGIConnection[Any, Any, Any, Any],
    ) -> None:
        """Write the session if it changed, and set or clear the cookie to match."""
        scope = cast(dict[str, Any], connection.scope)
        cookie_id = connection.cookies.get(self.config.key)
        given = {} if scope_session is Empty else cast(dict[str, Any], scope_session)
        rotate, data = _to_store(given)
        store_of = self.config.get_store_from_app  # looked up only for a write
        if not data:
            # Nothing worth keeping (a guest, a log-out, flashes already shown): no row, no cookie.
            if cookie_id:
                await self.delete(cookie_id, store=store_of(scope["app"]))
                headers = MutableScopeHeaders.from_message(message)
                headers.add("Set-Cookie", self._cookie("null", expires=0))
            return
        serialised = self.serialize_data(data, connection.scope)
        if not rotate and cookie_id and serialised == scope.get(_RAW_KEY):
            return  # unchanged, as at most requests: no write, no header
        headers = MutableScopeHeaders.from_message(message)
        if rotate or not cookie_id:
            if cookie_id:
                await self.delete(cookie_id, store=store_of(scope["app"]))
            session_id = self.generate_session_id()
        else:
            session_id = cookie_id
        await self.set(session_id=session_id, data=serialised, store=store_of(scope["app"]))
        headers.add("Set-Cookie", self._cookie(session_id))

    def stays_as_read(self, data: dict[str, Any], raw: bytes, scope: Scope) -> bool:
        """Whether the session `data`, read as `raw`, would be written back as it is, with no
        write and no cookie (`store_in_message` at most requests)."""
        rotate, stored = _to_store(data)
        return not rotate and bool(stored) and self.serialize_data(stored, scope) == raw

    def _cookie(self, value: str, **extra: Any) -> str:
        params = dict(
            extract_dataclass_items(
                self.config, exclude_none=True, include=set(Cookie.__dict__.keys())
            )
        )
        return Cookie(value=value, key=self.config.key, **params, **extra).to_header(header="")


def _to_store(data: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Whether the session moves to a fresh ID, and its data as stored: dated today, or empty
    when nothing is worth keeping."""
    stored = dict(data)
    rotate = bool(stored.pop(ROTATE_KEY, False))
    stored.pop(DAY_KEY, None)
    if stored:
        stored[DAY_KEY] = datetime.now(UTC).date().isoformat()
    return rotate, stored


def _companion(scope: Scope, named: int) -> tuple[Select[Any], dict[str, Any]] | None:
    """The route's companion read (db/prefetch.py) with its values for this request, if any."""
    handler = scope.get("route_handler")
    companion = None if handler is None else companion_of(handler.opt)
    if companion is None:
        return None
    values = companion.values(scope.get("path_params") or {}, named)
    return None if values is None else (companion.statement, values)


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
    named_row: NamedRow | None = None
    """The row the session's data names, read with the session's own row (see `NamedRow`)."""

    @property
    def middleware(self) -> DefineMiddleware:
        """The session middleware of this configuration."""
        return DefineMiddleware(SessionMiddleware, backend=self._backend_class(config=self))
