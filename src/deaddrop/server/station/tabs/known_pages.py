"""Known pages: a player's tab page asked for again, with nothing it shows changed, is sent
again as it was made, after one statement instead of the session's, the account's, the game's
and the journal's reads and the whole page machinery (issue 15: most page views of a game are
of an unchanged page).

What a warm tab page shows is a pure function of its request (the session and CSRF cookies,
the path and query), of the stored facts `page_facts.py` reads in one statement (the session's,
account's, game's and seat's whole rows, the game's newest journal seq, the player's looks), of
the looks this process has not written yet, and of the day (a session is rewritten once a day,
to push its expiry on). A page is kept under its request, with those facts read just before and
just after it was made: only when both readings agree is it certainly the page of those facts.
It is sent again only while a fresh reading of the facts is still the same. So nothing needs
telling when anything changes, another process included: a post, a vote, a Pouch, a log-out, a
password change, a new display name all change the facts, and the page is made afresh. A page is
kept for one browser only (its session and CSRF cookies are the key): no one is ever sent
another person's page, or another browser's CSRF token (S26–S31).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, NamedTuple, cast

from litestar import Request
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from deaddrop.server.accounts.auth import USER_ID_KEY
from deaddrop.server.cookies import CSRF_COOKIE, SESSION_COOKIE
from deaddrop.server.db.driver import holds_connection
from deaddrop.server.db.inline_reads import InlineReader, inline_reader
from deaddrop.server.db.lone_statements import LoneStatements, lone_statements
from deaddrop.server.db.request_session import (
    hold_request_session,
    opened_request_session,
    release_request_session,
    request_session,
)
from deaddrop.server.station.live.looks import LOOKS_KEY
from deaddrop.server.station.live.stream import stream_of
from deaddrop.server.station.tabs.page_facts import (
    GAME_ID,
    LOOKS_FROM,
    NEWEST,
    TAB_NAMES,
    FactsSource,
    read_facts,
)

ACCOUNTS_REMEMBERED = 100_000
"""Session IDs whose account this process remembers at most (then it starts afresh)."""
_TAB_OF_ROUTE = {f"station_{tab}": tab for tab in TAB_NAMES}
"""The route names of a player's tabs (tabs/routes.py); spectators' pages are not kept."""

Key = tuple[str, str, str, bytes]
"""(session cookie, CSRF cookie, path, query string)."""


class PageFacts(NamedTuple):
    """Everything a warm tab page of its player is made of, besides its request."""

    rows: tuple[Any, ...]
    """The session's, account's, game's and seat's stored rows (`page_facts.py`)."""
    newest: int | None
    """The game's newest journal seq."""
    looks: tuple[tuple[str, int], ...]
    """The player's looks, stored or on their way: (tab, furthest seq), by tab."""
    day: date
    """The day (UTC): a session is written again on a new day, to push its expiry on."""


@dataclass(frozen=True, slots=True)
class KnownPage:
    """A page as its handler sent it, and the facts it was made of."""

    facts: PageFacts
    start: dict[str, Any]
    """The response's start message (status and headers), before `before_send` hooks."""
    body: bytes


class KnownPages:
    """The known pages of one app, at most `budget` bytes of them, least recently asked first
    to go; and which account each session ID names (a session ID names one account for its
    whole life: log-in and log-out move the session to a fresh ID)."""

    def __init__(self, budget: int) -> None:
        self.budget, self.size = budget, 0
        self.pages: OrderedDict[Key, KnownPage] = OrderedDict()
        self.accounts: dict[str, int] = {}

    def get(self, key: Key) -> KnownPage | None:
        """The page kept under `key`, if any (it becomes the most recently asked for)."""
        page = self.pages.get(key)
        if page is not None:
            self.pages.move_to_end(key)
        return page

    def put(self, key: Key, page: KnownPage) -> None:
        """Keep `page` under `key`, forgetting the least recently asked for beyond the budget."""
        old = self.pages.pop(key, None)
        if old is not None:
            self.size -= len(old.body)
        self.pages[key] = page
        self.size += len(page.body)
        while self.size > self.budget and self.pages:
            _, gone = self.pages.popitem(last=False)
            self.size -= len(gone.body)

    def learn(self, session_id: str, user_id: int) -> None:
        """Remember the account a session ID names."""
        if len(self.accounts) >= ACCOUNTS_REMEMBERED:
            self.accounts.clear()
        self.accounts[session_id] = user_id


class _Capture:
    """A `send` that passes the answer on and keeps a copy of it; the answer's last message
    is held back (`finish`), so that the page is kept before its browser can ask again."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.start: dict[str, Any] | None = None
        self.chunks: list[bytes] = []
        self.last: Message | None = None

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            # A copy: the app's `before_send` hooks add their headers to the message in place.
            self.start = {**message, "headers": list(message.get("headers") or ())}
        elif message["type"] == "http.response.body":
            self.chunks.append(bytes(message.get("body", b"")))
            if not message.get("more_body", False):
                self.last = message
                return
        await self.send(message)

    async def finish(self) -> None:
        """Send the answer's last message, if it was held back."""
        last, self.last = self.last, None
        if last is not None:
            await self.send(last)

    def page(self, facts: PageFacts) -> KnownPage | None:
        """The answer as a page worth keeping: a complete 200 setting no cookie."""
        start = self.start
        if start is None or self.last is None or start.get("status") != 200:
            return None
        if any(name.lower() == b"set-cookie" for name, _ in start["headers"]):
            return None  # a session or CSRF cookie moved on: the next answer differs
        return KnownPage(facts, start, b"".join(self.chunks))


def serve_known_pages(app: ASGIApp, pages: KnownPages) -> ASGIApp:
    """ASGI middleware factory: a player's tab page sent again while its facts are unchanged."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        asked = _asked(scope, pages)
        if asked is None:  # not a player's tab, a guest, or a first page: made as always
            await app(scope, receive, send)
            return
        if asked.user_id is None:
            await app(scope, receive, send)
            _learn_account(pages, asked.session_id, scope)
            return
        await _known_or_made(app, pages, asked, receive, send)

    return middleware


@dataclass(frozen=True, slots=True)
class _Asked:
    """A player's tab page asked for by a browser with a session."""

    scope: Scope
    tab: str
    session_id: str
    csrf: str
    user_id: int | None
    """The account the session names, when this process has learnt it."""

    @property
    def key(self) -> Key:
        """Where the page is kept: the browser's own cookies, the path and the query."""
        return (self.session_id, self.csrf, self.scope["path"], self.scope["query_string"])

    async def facts(self, connection: FactsSource) -> PageFacts | None:
        """The page's facts as they stand (`_facts`); None without a session or a seat."""
        game = str(self.scope["path_params"].get("game_id", ""))
        assert self.user_id is not None  # asked only once the account is known
        return await _facts(self.scope, connection, self.session_id, self.user_id, game)


def _asked(scope: Scope, pages: KnownPages) -> _Asked | None:
    """The request as a player's tab page a page may be kept for; None for any other."""
    if scope["type"] != ScopeType.HTTP or scope["method"] != "GET" or pages.budget <= 0:
        return None
    route = scope.get("route_handler")
    tab = None if route is None else _TAB_OF_ROUTE.get(route.name or "")
    if tab is None:
        return None
    cookies = Request(scope).cookies  # parsed once per request, kept in the scope
    session_id, csrf = cookies.get(SESSION_COOKIE), cookies.get(CSRF_COOKIE)
    if not session_id or not csrf:
        return None
    return _Asked(scope, tab, session_id, csrf, pages.accounts.get(session_id))


async def _known_or_made(
    app: ASGIApp, pages: KnownPages, asked: _Asked, receive: Receive, send: Send
) -> None:
    """The known page while its facts hold; else the page made, and kept if it may be."""
    scope = asked.scope
    # On a SQLite file the facts are read inline, with no database session at all
    # (db/inline_reads.py), on PostgreSQL on a lone connection (db/lone_statements.py); through
    # the request's own session when it holds a connection, held open past the handler for the
    # facts' second reading (it must see what the handler left uncommitted there).
    engine = scope["app"].state["engine"]
    reader = inline_reader(engine) or lone_statements(engine)
    hold_request_session(scope)
    capture = _Capture(send)
    try:
        facts = await asked.facts(await _source(scope, reader))
        known = pages.get(asked.key)
        if facts is not None and known is not None and known.facts == facts:
            await release_request_session(scope)
            await send(cast(Message, {**known.start, "headers": list(known.start["headers"])}))
            await send(cast(Message, {"type": "http.response.body", "body": known.body}))
            return
        await app(scope, receive, capture)
        # No session or no seat: the answer (log in, 404) is not a page to keep.
        page = None if facts is None else capture.page(facts)
        if page is not None:
            _keep(pages, asked, page, await asked.facts(await _source(scope, reader)))
    finally:
        await release_request_session(scope)
        await capture.finish()  # the answer's last bytes leave once the page is kept


async def _source(scope: Scope, reader: InlineReader | LoneStatements | None) -> FactsSource:
    """Where the facts are read: the inline reader (SQLite) or the lone connections
    (PostgreSQL), unless the request's session holds a connection (the second reading must see
    what the handler left uncommitted on it, until the release rolls it back); else that
    session's connection (opened if it is not yet)."""
    opened = opened_request_session(scope)
    if reader is not None and (opened is None or not holds_connection(opened)):
        return reader
    return await request_session(scope, scope["app"].state["sessionmaker"]).connection()


def _keep(pages: KnownPages, asked: _Asked, page: KnownPage, after: PageFacts | None) -> None:
    """Keep a page just made if the facts read again, `after`, are still those it was made of
    (or differ only by the look the page itself recorded)."""
    if after == page.facts:
        pages.put(asked.key, page)
    elif after is not None and _only_looked(page.facts, after, asked.tab):
        pages.put(asked.key, KnownPage(after, page.start, page.body))


def _learn_account(pages: KnownPages, session_id: str, scope: Scope) -> None:
    """Remember the account the request's session named, once the page was made."""
    session = scope.get("session")
    user_id = session.get(USER_ID_KEY) if isinstance(session, dict) else None
    if isinstance(user_id, int):
        pages.learn(session_id, user_id)


def _only_looked(before: PageFacts, after: PageFacts, tab: str) -> bool:
    """Whether `after` is `before` but for the look at `tab` moved on to the newest seq: the
    look a page records as it is made (tabs/routes.py). A page never shows its own tab's look
    (the badges are the other tabs'), so the page made is the page of `after` too, and the
    first view of a changed page is kept already."""
    if (after.rows, after.newest, after.day) != (before.rows, before.newest, before.day):
        return False
    looks = dict(before.looks)
    looks[tab] = max(looks.get(tab, 0), before.newest or 0)
    return tuple(sorted(looks.items())) == after.looks


async def _facts(
    scope: Scope,
    connection: FactsSource,
    session_id: str,
    user_id: int,
    game: str,
) -> PageFacts | None:
    """The stored facts of the page, this process's looks not yet written, and the day."""
    if not game or len(game) > 64:
        return None
    now = datetime.now(UTC)
    stored = await read_facts(connection, session_id, user_id, game, stream_of(game), now)
    if stored is None:
        return None
    # The looks as the page reads them (tabs/routes.py `tab_values`): stored, then this
    # process's looks on their way to the database over them.
    looks = {
        tab: seq for tab, seq in zip(TAB_NAMES, stored[LOOKS_FROM:], strict=True) if seq is not None
    }
    for tab, seq in scope["app"].state[LOOKS_KEY].here().seen_by(stored[GAME_ID], user_id).items():
        looks[tab] = max(seq, looks.get(tab, 0))
    # Stored and waiting looks alike: the writer moving one to the database changes nothing.
    return PageFacts(stored[:NEWEST], stored[NEWEST], tuple(sorted(looks.items())), now.date())
