"""Open game pages across deaths, seat handovers and the game's end (S14, S26, S28–S31, S40).

Each test keeps a stream open (a real request to `/games/{id}/events` or `/watch/{token}/events`,
driven through the app's ASGI interface in its own event loop) while the game changes under
it, and then checks what was pushed: a seat burned mid-stream gains the Archive (S30), a seat
handed over stops streaming to its old holder (S40), the Pouch that ends the game opens every
channel to the players and nothing more to spectators (S26), a reconnect with Last-Event-ID
gets what it missed, and a Hypothesis run mixes all of these; on SQLite and PostgreSQL.

Synchronisation: `station_live.page_renderer` is wrapped (passively) so that a test knows which
journal rows each stream has handed to its renderer; a public `probe` event then proves that a
stream has read everything before it, even events it was right not to be woken by. A push's id
is its listener's cursor (how many events it may see so far), so a journal position is turned
into the cursor of the page's listener (`Stream.at`) before it is compared with one.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from litestar import Litestar
from litestar.response.sse import ServerSentEventMessage
from litestar.testing import TestClient
from markupsafe import escape
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.core.events import Audience, Event
from deaddrop.engine.station import SendWhisper
from deaddrop.engine.station.channels import Channel, can_read
from deaddrop.engine.station.roles import is_ring
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.hosting.transaction import GameWrite
from deaddrop.server.live import journal
from deaddrop.server.live.fanout import Batch
from deaddrop.server.live.journal import EVERYONE
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.live.sse import BatchRenderer
from deaddrop.server.station.chat.channels import do_post
from deaddrop.server.station.game.access import (
    GameContext,
    access_game_for_member,
    access_game_for_player,
)
from deaddrop.server.station.game.store import STATION
from deaddrop.server.station.host.service import do_remove, do_replace, do_set_spectators
from deaddrop.server.station.live import routes as station_live
from deaddrop.server.station.live.routes import END, START, live_part
from deaddrop.server.station.live.stream import stream_of
from deaddrop.server.station.lobby.service import NewGame, do_create_game, do_join, do_start
from deaddrop.server.station.play.service import do_act
from deaddrop.server.station.tabs.roles_text import result_sentence
from deaddrop.server.station.tabs.seen import listener_of
from tests.server.station.games import conftest as games
from tests.server.station.games.helpers import Person, RunDB, Table, user_named
from tests.server.station.live_applied import applied
from tests.server.station.test_live_stream import pushed

# The fixtures of the games' tests (a manual clock, the runner off, people, a started table),
# bound here so that this module's tests get them (a test module cannot load a conftest).
app, clock, host, make_players = games.app, games.clock, games.host, games.make_players
players, quick_passwords, stranger, table = (
    games.players,
    games.quick_passwords,
    games.stranger,
    games.table,
)

Server = TestClient[Litestar]
HEADER = "x-test-stream"
"""Names a test's stream on its request, so the observing renderer knows whose rows it saw."""
WAIT = 10.0
"""Seconds a stream may take to catch up before the test calls it stuck."""
_names = itertools.count()


# --- Watching what each stream's renderer is handed -------------------------------------------


@dataclass
class Observer:
    """Per stream name: the newest journal seq handed to its renderer, the SSE messages it
    made (the stream numbers each with the listener's cursor as it sends it)."""

    handed: dict[str, int] = field(default_factory=dict)
    made: dict[str, list[ServerSentEventMessage]] = field(default_factory=dict)

    def wrap(self, original: Callable[..., BatchRenderer]) -> Callable[..., BatchRenderer]:
        """`page_renderer` that records, then returns exactly what the app's own returns."""

        def page_renderer(request: Any, context: GameContext, tab: str, base: str) -> BatchRenderer:
            inner = original(request, context, tab, base)
            headers = getattr(request, "headers", None)  # `pushed` passes a bare stub
            name = "" if headers is None else headers.get(HEADER, "")

            async def render(
                batch: Batch, rows: Sequence[LiveEvent]
            ) -> list[ServerSentEventMessage] | None:
                out = await inner(batch, rows)
                self.made.setdefault(name, []).extend(out or [])
                self.handed[name] = max(self.handed.get(name, 0), rows[-1].seq)
                return out

            return render

        return page_renderer


@pytest.fixture
def observer(monkeypatch: pytest.MonkeyPatch) -> Observer:
    """Every page stream of the test, watched."""
    watching = Observer()
    monkeypatch.setattr(station_live, "page_renderer", watching.wrap(station_live.page_renderer))
    return watching


# --- One open SSE connection -----------------------------------------------------------------


@dataclass(frozen=True)
class Push:
    """One push of a stream: its SSE id and the page's live part as it then stands (a `page`
    event carries it whole; what changed, `append`, `region` or `badge`, is applied to the
    last one)."""

    seq: int
    html: str


class Stream:
    """A browser's EventSource on one game page: a real GET of the SSE route, kept open."""

    def __init__(
        self,
        server: Server,
        observer: Observer,
        path: str,
        cookie: str = "",
        *,
        after: int | None = None,
        last_event_id: int | None = None,
        at: Callable[[int], int] | None = None,
        base: str | None = None,
    ) -> None:
        self.server, self.observer, self.path = server, observer, path
        self.at = at or (lambda seq: seq)
        """Journal position → the cursor this page's pushes are numbered by."""
        self.base = base
        """The live part of the page the stream was opened from, where the test loaded one:
        what changed (`append`, `region`, `badge`) is applied to it until a whole page comes."""
        self.name = f"stream-{next(_names)}"
        self.after, self.last_event_id, self.cookie = after, last_event_id, cookie
        self.status: int | None = None
        self.body = b""
        self.pushes: list[Push] = []
        self.comments: list[str] = []
        self.ended = False
        self._buffer = ""
        self._task: asyncio.Task[None] | None = None
        self._disconnect: asyncio.Event | None = None

    # Everything below runs in the app's event loop through the portal.

    def _scope(self) -> dict[str, Any]:
        path, _, query = self.path.partition("?")
        if self.after is not None:
            query = f"{query}&after={self.after}" if query else f"after={self.after}"
        headers = [(b"host", b"testserver"), (HEADER.encode(), self.name.encode())]
        if self.cookie:
            headers.append((b"cookie", self.cookie.encode()))
        if self.last_event_id is not None:
            headers.append((b"last-event-id", str(self.last_event_id).encode()))
        return {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": query.encode(),
            "headers": headers,
            "client": ("testclient", 50000),
            "server": ("testserver", 80),
        }

    async def _run(self) -> None:
        assert self._disconnect is not None
        disconnect = self._disconnect
        requested = False

        async def receive() -> dict[str, Any]:
            nonlocal requested
            if not requested:
                requested = True
                return {"type": "http.request", "body": b"", "more_body": False}
            await disconnect.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                self.status = message["status"]
            elif message["type"] == "http.response.body":
                chunk = message.get("body", b"")
                self.body += chunk
                if self.status == 200:
                    self._feed(chunk.decode())
                if not message.get("more_body", False):
                    self.ended = True

        try:
            await self.server.app(self._scope(), receive, send)
        finally:
            self.ended = True

    def _feed(self, text: str) -> None:
        """Parse SSE the way a browser does: blocks end with a blank line, data lines join."""
        self._buffer += text.replace("\r\n", "\n")
        while "\n\n" in self._buffer:
            block, self._buffer = self._buffer.split("\n\n", 1)
            fields: dict[str, list[str]] = {}
            for line in block.split("\n"):
                if line.startswith(":"):
                    self.comments.append(line[1:].strip())
                    continue
                key, _, value = line.partition(":")
                fields.setdefault(key, []).append(value[1:] if value.startswith(" ") else value)
            event, data = fields.get("event", [""])[0], "\n".join(fields.get("data", []))
            if event == "page":
                self.pushes.append(Push(int(fields["id"][0]), data))
            elif event in ("append", "region", "badge", "cursor"):
                # What changed: the page as it stands with it applied, as the script does.
                last = self.pushes[-1].html if self.pushes else self.base
                if last is None:
                    continue  # no page to apply it to: the test loaded none
                seq, page = int(fields["id"][0]), START + last + END
                self.pushes.append(Push(seq, live_part(applied(page, [(seq, event, data)]))))

    async def _open(self) -> None:
        self._disconnect = asyncio.Event()
        self._task = asyncio.create_task(self._run())
        # Connected means subscribed and positioned in the journal: nothing after is lost.
        deadline = asyncio.get_running_loop().time() + WAIT
        while "connected" not in self.comments and not self.ended:
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"{self.path} never connected")
            await asyncio.sleep(0.002)

    async def _close(self) -> None:
        if self._task is None:
            return
        assert self._disconnect is not None
        self._disconnect.set()
        try:
            await asyncio.wait_for(self._task, WAIT)
        finally:
            self._task = None

    async def _until(self, ready: Callable[[], bool], what: str, may_end: bool = False) -> None:
        deadline = asyncio.get_running_loop().time() + WAIT
        while not ready():
            if self.ended and may_end:
                return
            if self.ended:
                raise AssertionError(f"{self.path} ended while waiting for {what}")
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"{self.path} ({self.name}) never got {what}")
            await asyncio.sleep(0.002)

    # The test's side.

    def open(self) -> Stream:
        """Connect and wait for the `connected` comment (or the refusal)."""
        self.server.blocking_portal.call(self._open)
        return self

    def close(self) -> None:
        """The page is closed (or the phone sleeps)."""
        self.server.blocking_portal.call(self._close)

    def caught_up(self, seq: int, *, may_end: bool = False) -> None:
        """Wait until the stream has handed every row up to `seq` it may see to its renderer
        and every message made from them has arrived (`seq` must be visible to it); or, when
        it `may_end`, until it ended."""

        def ready() -> bool:
            made = [message.id for message in self.observer.made.get(self.name, [])]
            arrived = {push.seq for push in self.pushes}
            if self.observer.handed.get(self.name, 0) < seq or None in made:
                return False  # not read that far, or a message not numbered and sent yet
            return {int(str(ident)) for ident in made} <= arrived

        self.server.blocking_portal.call(self._until, ready, f"row {seq}", may_end)

    def pushed_at_least(self, seq: int) -> Push:
        """Wait for a push of journal position `seq` or later; that push."""
        cursor = self.at(seq)

        def ready() -> bool:
            return any(push.seq >= cursor for push in self.pushes)

        self.server.blocking_portal.call(self._until, ready, f"a push of {seq} ({cursor})")
        return next(push for push in self.pushes if push.seq >= cursor)

    def finished(self) -> None:
        """Wait until the server has ended the stream."""

        async def wait() -> None:
            deadline = asyncio.get_running_loop().time() + WAIT
            while not self.ended:
                if asyncio.get_running_loop().time() > deadline:
                    raise AssertionError(f"{self.path} ({self.name}) was never ended")
                await asyncio.sleep(0.002)

        self.server.blocking_portal.call(wait)

    def text(self, start: int = 0) -> str:
        """Everything pushed from push number `start` on."""
        return "".join(push.html for push in self.pushes[start:])


def cookie_of(person: Person) -> str:
    """The browser's cookies, as it would send them with its EventSource."""
    return "; ".join(f"{name}={value}" for name, value in person.visitor.http.cookies.items())


def cursor(table: Table, listener: journal.Listener, seq: int) -> int:
    """The listener's cursor at journal position `seq`: what its streams number a push of it."""

    async def read(db: AsyncSession) -> int:
        return await journal.cursor_at(db, stream_of(table.game_id), listener, seq)

    found: int = table.run_db(read)
    return found


def cursor_of(table: Table, person: Person | None) -> Callable[[int], int]:
    """Journal position → the cursor of this person's pages (None: a spectator's), as the
    person's seat reads now (every event once the game is over, S26)."""

    def at(seq: int) -> int:
        async def read(db: AsyncSession) -> int:
            listener: journal.Listener = None
            if person is not None:
                user = await user_named(db, person.username)
                listener = listener_of(await access_game_for_player(db, table.game_id, user))
            return await journal.cursor_at(db, stream_of(table.game_id), listener, seq)

        cursor: int = table.run_db(read)
        return cursor

    return at


def last_seq(table: Table) -> int:
    """The newest journal position of the game."""

    async def read(db: AsyncSession) -> int:
        return await journal.last_seq(db, stream_of(table.game_id))

    found: int = table.run_db(read)
    return found


def probe(table: Table) -> int:
    """A public, content-free event: every stream that reads it has read all before it."""

    async def write(db: AsyncSession) -> int:
        write = GameWrite(db, STATION, table.game_id)
        write.journal([Event("probe", {}, Audience.everyone())])
        return await write.commit()

    seq: int = table.run_db(write)
    return seq


def settle(table: Table, *streams: Stream) -> int:
    """Probe, and wait until every connected stream has caught up with it; the probe's seq."""
    seq = probe(table)
    for stream in streams:
        if stream.status == 200 and not stream.ended:
            stream.caught_up(seq)
    return seq


def open_page(server: Server, observer: Observer, table: Table, person: Person, tab: str) -> Stream:
    """A player's page of `tab`, its stream opened where the page was built (`?after=`)."""
    page = person.get(table.path(f"/{tab}")).text
    after = int(page.split('data-live-after="')[1].split('"')[0])
    path = table.path(f"/events?tab={tab}")
    at = cursor_of(table, person)
    base = live_part(page)
    return Stream(server, observer, path, cookie_of(person), after=after, at=at, base=base).open()


BADGE = re.compile(r' <span class="tab-badge">.*?</span></span>')


def masked(html: str) -> str:
    """Markup with its CSRF tokens masked (each request may carry its own) and the tab bar's
    badges left out: with several pages of one player open, each page's look clears a badge
    another page showed a moment before, in whatever order the pushes run (the badges have
    their own tests, with one page open: test_tab_badges.py, test_live_stream.py)."""
    return BADGE.sub("", re.sub(r'name="_csrf_token" value="[^"]*"', "TOKEN", html))


def fresh(person: Person, path: str) -> str:
    """The live part of a fresh load of a page."""
    return masked(station_live.live_part(person.get(path).text))


def post(person: Person, table: Table, channel: str, text: str) -> int:
    """Post through the JSON API; the journal position after it."""
    table.clock.advance(timedelta(seconds=4))  # the chat's rate limit counts real seconds
    answer = person.json(table.api(f"/chat/{channel}"), {"text": text})
    assert answer.status_code == 200, answer.text
    return last_seq(table)


def whisper(person: Person, table: Table, to: int, text: str) -> int:
    """Whisper through the JSON API; the journal position after it."""
    answer = person.json(table.api("/whisper"), {"recipient": table.codenames[to], "text": text})
    assert answer.status_code == 200, answer.text
    return last_seq(table)


def remove(table: Table, seat: int) -> int:
    """The host removes a seat (S40); the journal position after it."""
    answer = table.host.json(
        table.api("/host/remove"), {"codename": table.codenames[seat], "confirm": True}
    )
    assert answer.status_code == 200, answer.text
    return last_seq(table)


def recall(table: Table, seat: int) -> None:
    """Every living player votes for `seat`; the runner resolves the Pouch (S21, S20)."""
    state = table.state()
    for voter in state.living():
        answer = table.people[voter].json(table.api("/vote"), {"vote": table.codenames[seat]})
        assert answer.status_code == 200, answer.text
    assert table.pouch() == 1
    assert not table.state().alive[seat]


def sides(table: Table) -> tuple[list[int], list[int]]:
    """The Ring's seats and the other seats (the host's seat 0 last among them)."""
    ring = [s for s, role in enumerate(table.roles) if is_ring(role)]
    others = sorted((s for s in range(6) if s not in ring), key=lambda s: (s == 0, s))
    return ring, others


# --- 1. A death while connected ---------------------------------------------------------------


def test_s30_a_player_burned_while_connected_gains_the_archive_live(
    server: Server, observer: Observer, table: Table
) -> None:
    (first, second), (victim, witness, whisperer, *_) = sides(table)
    victim_page = open_page(server, observer, table, table.people[victim], "dossier")
    witness_page = open_page(server, observer, table, table.people[witness], "dossier")
    removed_page = open_page(server, observer, table, table.people[first], "dossier")
    streams = (victim_page, witness_page, removed_page)

    post(table.people[second], table, "ring", "RINGTEXT1END")
    whisper(table.people[second], table, whisperer, "WHISPERTEXT1END")
    seq = remove(table, first)  # a Ring member burned by the host while their page is open
    assert removed_page.pushed_at_least(seq)
    archive = post(table.people[first], table, "archive", "ARCHIVETEXT1END")
    assert "ARCHIVETEXT1END" in removed_page.pushed_at_least(archive).html  # S30
    settle(table, *streams)
    for stream in (victim_page, witness_page):
        text = stream.text()
        assert stream.pushes  # they were woken (the removal is public) …
        for secret in ("RINGTEXT1END", "WHISPERTEXT1END", "ARCHIVETEXT1END"):
            assert secret not in text  # … but read nothing of the Archive, Ring or whispers
    before = len(victim_page.pushes)

    recall(table, victim)  # the Tribunal burns the victim at the Pouch, page still open
    settle(table, *streams)
    death = victim_page.text(before)
    assert "ARCHIVETEXT1END" in death  # S30: the Archive's history opens at once
    assert victim_page.pushes[-1].html and masked(victim_page.pushes[-1].html) == fresh(
        table.people[victim], table.path("/dossier")
    )
    later = post(table.people[first], table, "archive", "ARCHIVETEXT2END")
    assert "ARCHIVETEXT2END" in victim_page.pushed_at_least(later).html  # woken by it, too
    own = post(table.people[victim], table, "archive", "ARCHIVETEXT3END")
    assert "ARCHIVETEXT3END" in victim_page.pushed_at_least(own).html
    assert "ARCHIVETEXT3END" in removed_page.pushed_at_least(own).html
    settle(table, *streams)
    for secret in ("RINGTEXT1END", "WHISPERTEXT1END"):
        assert secret not in victim_page.text()  # S29, S31: still not theirs after death
    assert "RINGTEXT1END" in removed_page.text()  # S29: a burned Ring member keeps reading
    # S30: the living Station player's open page never had the Archive, in the whole run.
    assert witness_page.pushes and "ARCHIVETEXT" not in witness_page.text()
    for stream in streams:
        stream.close()


# --- 2. A seat handed over while connected -----------------------------------------------------


def informed_seat(table: Table) -> int:
    """A seat other than the host's whose Operation gives a Dossier result every Pouch."""
    return next(s for s in range(1, 6) if table.roles[s] in ("analyst", "field_agent"))


def replace(table: Table, seat: int, newcomer: Person) -> int:
    """The host hands a seat to a newcomer (S40); the journal position after it."""
    answer = table.host.json(
        table.api("/host/replace"),
        {"codename": table.codenames[seat], "username": newcomer.username},
    )
    assert answer.status_code == 200, answer.text
    return last_seq(table)


def test_s40_a_seat_handed_over_stops_streaming_to_its_old_holder(
    server: Server,
    observer: Observer,
    table: Table,
    make_players: Callable[[int], list[Person]],
) -> None:
    seat = informed_seat(table)
    old = table.people[seat]
    sender = next(s for s in range(6) if s != seat)
    target = next(s for s in range(6) if s not in (seat, sender))
    answer = old.json(table.api("/operation"), {"target": table.codenames[target]})
    assert answer.status_code == 200, answer.text
    dossier = open_page(server, observer, table, old, "dossier")
    floor = open_page(server, observer, table, old, "floor")
    before = whisper(table.people[sender], table, seat, "WHISPEROLD1END")
    assert "WHISPEROLD1END" in dossier.pushed_at_least(before).html  # the stream is live
    settle(table, dossier, floor)
    counts = (len(dossier.pushes), len(floor.pushes))

    newcomer = make_players(1)[0]
    handed = replace(table, seat, newcomer)
    # The handover's public notice wakes the old holder's pages, and the server ends them:
    # a browser's reconnect then meets a 404 instead of streaming on.
    dossier.finished()
    floor.finished()
    fresh_page = open_page(server, observer, table, newcomer, "dossier")
    assert "WHISPEROLD1END" in fresh(newcomer, table.path("/dossier"))  # the seat's history
    after = whisper(table.people[sender], table, seat, "WHISPERNEW1END")
    assert "WHISPERNEW1END" in fresh_page.pushed_at_least(after).html
    assert table.pouch() == 1  # the seat's Operation, saved by the old holder, reports now
    results = newcomer.get(table.api()).json()["view"]["me"]["results"]
    sentence = escape(result_sentence(results[0]["results"][0]))  # e.g. "HERON read CLEAR."
    settle(table, dossier, floor, fresh_page)
    assert masked(fresh_page.pushes[-1].html) == fresh(newcomer, table.path("/dossier"))
    assert sentence in fresh_page.pushes[-1].html and "No private results yet." not in (
        fresh_page.pushes[-1].html
    )

    # The old holder's pages got not one push since the handover: no whisper, no result, not
    # even the notice.
    assert (len(dossier.pushes), len(floor.pushes)) == counts
    assert all(push.seq < cursor(table, seat, handed) for push in dossier.pushes + floor.pushes)
    assert "WHISPERNEW1END" not in dossier.text() + floor.text()
    assert sentence not in dossier.text() + floor.text()
    for stream in (dossier, floor, fresh_page):
        stream.close()


# --- 3. The game's end while connected ----------------------------------------------------------


def watch_page(server: Server, observer: Observer, table: Table, guest: Person, tab: str) -> Stream:
    """A spectator's page of `tab` behind the spectator link, its stream opened."""
    token = table.game().spectator_token
    page = guest.get(f"/watch/{token}/{tab}").text
    after = int(page.split('data-live-after="')[1].split('"')[0])
    path = f"/watch/{token}/events?tab={tab}"
    at = cursor_of(table, None)
    base = live_part(page)
    return Stream(server, observer, path, cookie_of(guest), after=after, at=at, base=base).open()


def test_s26_the_pouch_that_ends_the_game_opens_every_channel_on_open_pages(
    server: Server, observer: Observer, table: Table, stranger: Person
) -> None:
    (first, second), (reader, confidant, *_) = sides(table)
    post(table.people[first], table, "ring", "RINGTEXT1END")
    whisper(table.people[second], table, confidant, "WHISPERTEXT1END")
    remove(table, first)
    post(table.people[first], table, "archive", "ARCHIVETEXT1END")
    table.host.form(table.path("/host/spectators"), {"enabled": "yes"})
    token = table.game().spectator_token
    secrets = ("RINGTEXT1END", "WHISPERTEXT1END", "ARCHIVETEXT1END")

    player = {
        tab: open_page(server, observer, table, table.people[reader], tab)
        for tab in ("dossier", "cable", "floor")
    }
    watcher = {
        tab: watch_page(server, observer, table, stranger, tab) for tab in ("cable", "floor")
    }
    streams = (*player.values(), *watcher.values())
    old_pages = {tab: table.people[reader].get(table.path(f"/{tab}")).text for tab in player}
    settle(table, *streams)
    for stream in streams:
        assert not any(secret in stream.text() for secret in secrets)
    counts = {stream.name: len(stream.pushes) for stream in streams}

    recall(table, second)  # the last Ring member recalled: the Station wins (S24)
    assert table.game().status == "over"
    settle(table, *streams)
    for stream in streams:
        assert len(stream.pushes) > counts[stream.name], stream.path
    # S26: every channel, every whisper, on the pages that were open when the Pouch left.
    assert "RINGTEXT1END" in player["dossier"].pushes[-1].html
    assert "ARCHIVETEXT1END" in player["dossier"].pushes[-1].html
    assert "WHISPERTEXT1END" in player["cable"].pushes[-1].html
    for tab, stream in player.items():
        # The page with the push applied is the page a fresh load shows (verify_action).
        old = old_pages[tab]
        start = old.index(station_live.START) + len(station_live.START)
        end = old.index(station_live.END, start)
        applied = old[:start] + stream.pushes[-1].html + old[end:]
        path = table.path(f"/{tab}")
        assert masked(station_live.live_part(applied)) == fresh(table.people[reader], path), tab
    # Spectators: the end reveals the roles on the Cable, never the players' history (S26, S28).
    for tab, stream in watcher.items():
        assert masked(stream.pushes[-1].html) == fresh(stranger, f"/watch/{token}/{tab}"), tab
        assert not any(secret in stream.text() for secret in secrets), tab
    assert "RINGTEXT1END" not in stranger.get(f"/watch/{token}/cable").text
    spectator_cable = watcher["cable"].pushes[-1].html
    assert spectator_cable != player["cable"].pushes[-1].html
    for stream in streams:
        stream.close()


# --- 4. Reconnecting after a death or a handover -----------------------------------------------


def visible_after(table: Table, after: int, listener: journal.Listener) -> list[LiveEvent]:
    """The journal rows after `after` that a listener may see."""

    async def read(db: AsyncSession) -> list[LiveEvent]:
        return await journal.events_since(db, stream_of(table.game_id), after, listener)

    rows: list[LiveEvent] = table.run_db(read)
    return rows


def test_a_reconnect_after_a_death_gets_exactly_what_it_missed(
    server: Server, observer: Observer, table: Table
) -> None:
    (first, second), (sleeper, confidant, *_) = sides(table)
    person = table.people[sleeper]
    page = open_page(server, observer, table, person, "dossier")
    last = settle(table, page)
    at = page.at  # journal position → this seat's cursor
    assert page.pushes[-1].seq == at(last)
    page.close()  # the phone sleeps

    remove(table, first)
    post(table.people[second], table, "ring", "RINGTEXT1END")
    whisper(table.people[second], table, confidant, "WHISPERTEXT1END")
    remove(table, sleeper)
    archive = post(table.people[first], table, "archive", "ARCHIVETEXT1END")
    post(table.people[second], table, "ring", "RINGTEXT2END")

    missed = visible_after(table, last, sleeper)
    kinds = [(row.kind, row.payload.get("channel")) for row in missed]
    assert ("message", "archive") in kinds  # S30: burned when it was posted
    assert ("message", "ring") not in kinds and ("whisper", None) not in kinds
    assert missed[-1].seq == archive
    path = table.path("/events?tab=dossier")
    back = Stream(server, observer, path, cookie_of(person), last_event_id=at(last), at=at).open()
    assert back.pushed_at_least(archive).seq == at(archive)  # all it missed, in one page
    seq = settle(table, back)
    assert [push.seq for push in back.pushes] == [at(archive), at(seq)]
    first_push = back.pushes[0].html
    assert "ARCHIVETEXT1END" in first_push
    assert "RINGTEXT" not in back.text() and "WHISPERTEXT1END" not in back.text()
    assert masked(back.pushes[-1].html) == fresh(person, table.path("/dossier"))
    back.close()
    again = Stream(server, observer, path, cookie_of(person), last_event_id=at(seq)).open()
    assert again.pushes == []
    quiet = settle(table, again)
    assert [push.seq for push in again.pushes] == [at(quiet)]  # the probe alone: nothing twice

    again.close()


def context_of(table: Table, person: Person) -> GameContext:
    """The game as this person reaches it now (a page load)."""

    async def fetch(db: AsyncSession) -> GameContext:
        return await access_game_for_player(
            db, table.game_id, await user_named(db, person.username)
        )

    found: GameContext = table.run_db(fetch)
    return found


def test_a_reconnect_after_a_handover_gets_nothing_of_the_newcomer(
    server: Server,
    observer: Observer,
    table: Table,
    make_players: Callable[[int], list[Person]],
) -> None:
    seat = informed_seat(table)
    old, sender = table.people[seat], next(s for s in range(6) if s != seat)
    page = open_page(server, observer, table, old, "dossier")
    last = settle(table, page)
    context = context_of(table, old)  # what a reconnect racing the handover already holds
    page.close()

    newcomer = make_players(1)[0]
    replace(table, seat, newcomer)
    whisper(table.people[sender], table, seat, "WHISPERNEW1END")
    assert any(row.kind == "whisper" for row in visible_after(table, last, seat))

    path = table.path("/events?tab=dossier")
    mine = cursor(table, seat, last)  # what the old holder's browser sends as Last-Event-ID
    back = Stream(server, observer, path, cookie_of(old), last_event_id=mine).open()
    assert back.ended and back.status == 404  # the route refuses the old holder at once
    assert back.pushes == [] and b"WHISPERNEW1END" not in back.body
    # A reconnect that got its context just before the handover replays nothing either.
    assert pushed(server, context, "dossier", mine) == []
    at = cursor_of(table, newcomer)
    newcomer_back = Stream(
        server, observer, path, cookie_of(newcomer), last_event_id=mine, at=at
    ).open()
    assert "WHISPERNEW1END" in newcomer_back.pushed_at_least(last + 1).html
    newcomer_back.close()


def test_a_closed_spectator_link_stops_its_open_pages(
    server: Server, observer: Observer, table: Table, stranger: Person
) -> None:
    table.host.form(table.path("/host/spectators"), {"enabled": "yes"})
    token = table.game().spectator_token
    page = watch_page(server, observer, table, stranger, "floor")
    assert (
        "FLOORTEXT1END"
        in page.pushed_at_least(post(table.people[1], table, "floor", "FLOORTEXT1END")).html
    )
    table.host.form(table.path("/host/spectators"), {"enabled": "no"})
    assert stranger.get(f"/watch/{token}/floor").status_code == 404  # the link is dead …
    post(table.people[2], table, "floor", "FLOORTEXT2END")
    # The page of a dead link stops: before the probe, or (as once in CI) while it is awaited.
    page.caught_up(probe(table), may_end=True)
    page.close()
    assert "FLOORTEXT2END" not in page.text()  # … and so is the page it had opened


# --- 5. Any order of the above ------------------------------------------------------------------

TAB_NAMES = ("floor", "dossier", "cable")
WATCH_TABS = ("floor", "cable", "floor")
"""A spectator's choice of the same index (they have no Dossier)."""
CHANNELS = ("floor", "ring", "archive")
MARKER = re.compile(r"MARK[A-Z]+\d{3}END")
MAX_OPEN = 5
STEP = st.one_of(
    st.tuples(st.just("open"), st.integers(-1, 8), st.integers(0, 2)),  # -1: a spectator
    st.tuples(st.just("post"), st.integers(0, 5), st.integers(0, 2)),
    st.tuples(st.just("whisper"), st.integers(0, 5), st.integers(0, 5)),
    st.tuples(st.just("remove"), st.integers(0, 11), st.just(0)),
    st.tuples(st.just("replace"), st.integers(0, 11), st.integers(0, 8)),
    st.tuples(st.just("reconnect"), st.integers(0, 9), st.just(0)),
)
"""(kind, a, b). Seats are picked among those the step suits (a living Ring member for a
Ring post, a burned one for the Archive; from 6 on, the seat of an open page for a removal
or a handover), so that most steps happen; refusals are still checked when none suits."""


@dataclass(frozen=True)
class Text:
    """A marker somebody wrote, where, and (for a whisper) between whom."""

    marker: str
    channel: str
    """floor, ring, archive or whisper."""
    parties: tuple[int, ...] = ()


@dataclass
class Truth:
    """Who may read what now, from the rules and the steps alone (never from the app)."""

    ring: frozenset[int]
    alive: list[bool] = field(default_factory=lambda: [True] * 6)
    holder: list[int] = field(default_factory=lambda: list(range(6)))
    """The person (index into the pool) at each seat."""
    over: bool = False
    sent: list[int] = field(default_factory=lambda: [0] * 6)
    texts: list[Text] = field(default_factory=list)

    def may_read(self, seat: int | None, text: Text) -> bool:
        """S26, S28–S31, for a seat (None: a spectator)."""
        if text.channel == "floor":
            return True  # S28
        if seat is None:
            return False  # spectators: public things only
        if self.over:
            return True  # S26: the players read everything once the game is over
        if text.channel == "ring":
            return seat in self.ring  # S29: burned Ring members too
        if text.channel == "archive":
            return not self.alive[seat]  # S30
        return seat in text.parties  # S31

    def shown(self, seat: int | None, tab: str) -> set[str]:
        """The markers a fresh load of `tab` shows this seat: where each page shows what."""

        def on(text: Text) -> bool:
            if tab == "floor":
                return text.channel == "floor"
            if seat is None or text.channel == "floor":
                return False
            if text.channel == "whisper":  # the Dossier: one's own; the Cable: all at the end
                return seat in text.parties if tab == "dossier" else self.over
            return tab == "dossier"  # the Ring Channel and the Archive sit in the Dossier

        return {t.marker for t in self.texts if on(t) and self.may_read(seat, t)}

    def ends(self) -> None:
        """S24 after a removal: no living Ring, or the Ring at least as many as the rest."""
        ring = sum(1 for s in self.ring if self.alive[s])
        rest = sum(1 for s in range(6) if self.alive[s] and s not in self.ring)
        self.over = ring == 0 or ring >= rest


@dataclass
class Page:
    """An open page of the run: its stream, who opened it, for which seat and tab."""

    stream: Stream
    person: int | None
    seat: int | None
    tab: str
    checked: int = 0
    revoked: bool = False
    """Its person lost the seat while it was open: the server ends it for good (S40), even
    should the seat come back to them later (a fresh page is then theirs again)."""

    def active(self, truth: Truth) -> bool:
        """Whether the page's person still holds its seat (S40) and the page was never cut."""
        if self.person is None:
            return True
        return not self.revoked and self.seat is not None and truth.holder[self.seat] == self.person

    def last_id(self) -> int:
        """What the browser would send as Last-Event-ID."""
        assert self.stream.after is not None or self.stream.last_event_id is not None
        start = self.stream.after if self.stream.after is not None else self.stream.last_event_id
        return self.stream.pushes[-1].seq if self.stream.pushes else int(start or 0)


class Run:
    """One random sequence on a game of its own."""

    def __init__(
        self, server: Server, observer: Observer, pool: list[Person], table: Table
    ) -> None:
        self.server, self.observer, self.pool, self.table = server, observer, pool, table
        ring = frozenset(s for s, role in enumerate(table.roles) if is_ring(role))
        self.truth = Truth(ring)
        self.pages: list[Page] = []
        self.count = 0
        self.token = table.game().spectator_token

    def seat_of(self, person: int) -> int | None:
        return self.truth.holder.index(person) if person in self.truth.holder else None

    def open(self, person: int | None, tab: int, last_event_id: int | None = None) -> None:
        if person is None:
            name, path, cookie, seat = WATCH_TABS[tab], f"/watch/{self.token}/events", "", None
        else:
            name, seat = TAB_NAMES[tab], self.seat_of(person)
            path, cookie = self.table.path("/events"), cookie_of(self.pool[person])
        # A new page is loaded first: what changed is applied to it (a reconnect has none).
        base = None if last_event_id is not None else self.loaded(person, seat, name)
        # From now: the journal position is at least the listener's cursor, so it starts now.
        after = None if last_event_id is not None else last_seq(self.table)
        stream = Stream(
            self.server,
            self.observer,
            f"{path}?tab={name}",
            cookie,
            after=after,
            last_event_id=last_event_id,
            base=base,
        ).open()
        if person is not None and seat is None:  # at no seat (replaced): nothing, ever
            assert stream.status == 404 and stream.ended and stream.pushes == []
            event("a replaced holder opened a page again")
            return
        assert stream.status == 200, stream.body
        self.pages.append(Page(stream, person, seat, name))

    def loaded(self, person: int | None, seat: int | None, tab: str) -> str | None:
        """The live part of the page a person (None: a spectator) loads now; None at no seat."""
        if person is None:
            return live_part(self.server.get(f"/watch/{self.token}/{tab}").text)
        if seat is None:
            return None
        return live_part(self.pool[person].get(self.table.path(f"/{tab}")).text)

    def as_person(self, person: int, write: Callable[[AsyncSession, GameContext], Any]) -> bool:
        """Run a write as a person at the table; whether the app took it."""

        async def run(db: AsyncSession) -> bool:
            user = await user_named(db, self.pool[person].username)
            context = await access_game_for_member(db, self.table.game_id, user)
            try:
                await write(db, context)
            except Refused:
                return False
            return True

        taken: bool = self.table.run_db(run)
        return taken

    def marker(self, kind: str) -> str:
        self.count += 1
        return f"MARK{kind.upper()}{self.count:03d}END"

    def seat_for(self, a: int, suits: Callable[[int], bool]) -> int:
        """The a-th seat (cyclically) that suits a step; seat a % 6 when none does."""
        if a >= 6:
            seats = [page.seat for page in self.pages if page.seat is not None]
            return seats[a % len(seats)] if seats else a % 6
        suited = [seat for seat in range(6) if suits(seat)]
        return suited[a % len(suited)] if suited else a % 6

    def step(self, kind: str, a: int, b: int) -> Text | None:
        """Do one step; the text it wrote, if any."""
        truth, clock = self.truth, self.table.clock
        if kind == "open":
            if len(self.pages) < MAX_OPEN:
                self.open(None if a < 0 else a, b)
        elif kind == "reconnect" and self.pages:
            page = self.pages.pop(a % len(self.pages))
            page.stream.close()
            tab = (TAB_NAMES if page.person is not None else WATCH_TABS).index(page.tab)
            self.open(page.person, tab, last_event_id=page.last_id())
        elif kind == "post":
            channel, text = CHANNELS[b], self.marker(CHANNELS[b])

            def may_post(seat: int) -> bool:
                return {
                    "floor": truth.over or truth.alive[seat],  # S26, S28
                    "ring": not truth.over and truth.alive[seat] and seat in truth.ring,  # S29
                    "archive": not truth.over and not truth.alive[seat],  # S30
                }[channel]

            a = self.seat_for(a, may_post)
            allowed = may_post(a)
            clock.advance(timedelta(seconds=4))  # under the chat's rate limit

            async def write_post(db: AsyncSession, context: GameContext) -> None:
                await do_post(db, context, Channel(channel), text, clock.now())

            assert self.as_person(truth.holder[a], write_post) == allowed, (channel, a)
            return Text(text, channel) if allowed else None
        elif kind == "whisper":
            text = self.marker("whisper")
            a = self.seat_for(a, lambda seat: truth.alive[seat] and truth.sent[seat] < 2)
            b = self.seat_for(b, lambda seat: truth.alive[seat] and seat != a)
            allowed = not truth.over and truth.alive[a] and truth.alive[b] and a != b
            allowed = allowed and truth.sent[a] < 2  # S31

            async def write_whisper(db: AsyncSession, context: GameContext) -> None:
                await do_act(db, context, SendWhisper(a, b, text), clock=clock)

            assert self.as_person(truth.holder[a], write_whisper) == allowed, (a, b)
            if allowed:
                truth.sent[a] += 1
                return Text(text, "whisper", (a, b))
        elif kind == "remove":
            a = self.seat_for(a, lambda seat: truth.alive[seat])
            allowed = not truth.over and truth.alive[a]

            async def write_removal(db: AsyncSession, context: GameContext) -> None:
                await do_remove(db, context, a, clock)

            assert self.as_person(0, write_removal) == allowed, a
            if allowed:
                truth.alive[a] = False
                truth.ends()
                if any(page.seat == a for page in self.pages):
                    event("burned with a page open")
                if truth.over and self.pages:
                    event("the game ended with pages open")
                assert self.table.state().over == truth.over  # S24, checked at once (S40)
        elif kind == "replace":
            a = self.seat_for(a, lambda seat: seat != 0 and truth.alive[seat])
            allowed = not truth.over and truth.alive[a] and b not in truth.holder
            allowed = allowed and a != 0  # the host keeps their own seat

            async def write_handover(db: AsyncSession, context: GameContext) -> None:
                newcomer = await user_named(db, self.pool[b].username)
                await do_replace(db, context, a, newcomer, clock)

            assert self.as_person(0, write_handover) == allowed, (a, b)
            if allowed:
                for page in self.pages:
                    if page.seat == a and page.active(truth):
                        event("handed over with a page open")
                        page.revoked = True
                truth.holder[a] = b
        return None

    def check(self, written: Text | None) -> None:
        """Every open page got exactly what its seat may read now, and nothing once replaced."""
        truth = self.truth
        if written is not None:
            truth.texts.append(written)
            seq = last_seq(self.table)
            # Journaled for exactly the seats that may read it now: nobody else is even woken.
            kind = "whisper" if written.channel == "whisper" else "message"
            row = next(
                r for r in reversed(visible_after(self.table, 0, EVERYONE)) if r.kind == kind
            )
            readers = {seat for seat in range(6) if truth.may_read(seat, written)}
            assert row.public == (written.channel == "floor"), written
            assert row.public or set(row.seats) == readers, (written, row.seats)
            for page in self.pages:  # woken by the text itself, before any probe
                if page.active(truth) and truth.may_read(page.seat, written):
                    page.stream.caught_up(seq)
                    if written.marker in truth.shown(page.seat, page.tab):
                        assert written.marker in page.stream.pushes[-1].html
        for page in self.pages:
            if page.revoked:
                page.stream.finished()  # woken by the handover's notice, and ended
        settle(self.table, *(page.stream for page in self.pages if page.active(truth)))
        for page in self.pages:
            new = page.stream.pushes[page.checked :]
            page.checked = len(page.stream.pushes)
            if not page.active(truth):
                assert new == [], "a replaced holder's page is still being pushed to"
                continue
            assert new, page.stream.path
            expected = truth.shown(page.seat, page.tab)
            for push in new:
                assert set(MARKER.findall(push.html)) == expected, (page.seat, page.tab)
        state = self.table.state()
        assert state.over == truth.over
        for seat in range(6):  # the truth agrees with the engine's own reading rules
            for channel in (Channel.RING, Channel.ARCHIVE):
                sample = Text("", channel.value)
                allowed = can_read(state, seat, channel, state.day)
                assert allowed == truth.may_read(seat, sample), (seat, channel)

    def close(self) -> None:
        for page in self.pages:
            page.stream.close()


@pytest.fixture
def pool(
    host: Person, players: list[Person], make_players: Callable[[int], list[Person]]
) -> list[Person]:
    """The host, five players, and three more who may take over seats."""
    return [host, *players, *make_players(3)]


def new_table(pool: list[Person], run_db: RunDB, app: Litestar) -> Table:
    """A new game of the pool's first six, started, its spectator link on."""
    clock = app.state.clock

    async def create(db: AsyncSession) -> str:
        host = await user_named(db, pool[0].username)
        game = await do_create_game(db, host, NewGame("Operation Lead", 21 * 60, "Europe/Berlin"))
        for person in pool[1:6]:
            await do_join(db, game, await user_named(db, person.username))
        context = await access_game_for_member(db, game.public_id, host)
        await do_start(db, context, clock)
        await do_set_spectators(db, context, True, clock)
        return game.public_id

    game_id: str = run_db(create)
    fresh_table = Table(game_id, pool[0], pool[:6], run_db, app)
    state = fresh_table.state()
    fresh_table.codenames = [seat.codename for seat in state.seats]
    fresh_table.roles = [seat.role for seat in state.seats]
    return fresh_table


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    first=st.lists(st.tuples(st.integers(-1, 5), st.integers(0, 2)), min_size=1, max_size=3),
    steps=st.lists(STEP, max_size=10),
)
def test_open_pages_never_get_what_they_may_not_read_in_any_order(
    server: Server,
    observer: Observer,
    pool: list[Person],
    run_db: RunDB,
    first: list[tuple[int, int]],
    steps: list[tuple[str, int, int]],
) -> None:
    run = Run(server, observer, pool, new_table(pool, run_db, server.app))
    try:
        for person, tab in first:
            run.open(None if person < 0 else person, tab)
        run.check(None)
        for kind, a, b in steps:
            run.check(run.step(kind, a, b))
    finally:
        run.close()
