"""A game page's SSE stream: each seat gets only what it may read (S14, S29–S31), replays from
Last-Event-ID come from the database, and a pushed fragment equals a fresh render (the way
Zulip's verify_action checks it); SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from functools import partial
from types import SimpleNamespace

from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.roles import is_ring
from deaddrop.server.accounts.models import User
from deaddrop.server.live import journal
from deaddrop.server.station.game.access import GameContext, access_game_for_player
from deaddrop.server.station.live import routes as station_live
from deaddrop.server.station.live.stream import stream_of
from deaddrop.server.station.tabs.seen import listener_of
from tests.server.station.live_applied import applied
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    six_players,
    started_table,
)
from tests.server.station.test_chat_routes import api_post, ring_and_station
from tests.server.visitor import Visitor

Server = TestClient[Litestar]


def context_of(run_db: RunDB, table: Table, seat: int) -> GameContext:
    """The game as the player of `seat` reaches it."""

    async def fetch(db: AsyncSession) -> GameContext:
        user = await db.scalar(select(User).where(User.username == table.players[seat].username))
        assert user is not None
        return await access_game_for_player(db, table.game_id, user)

    found: GameContext = run_db(fetch)
    return found


def pushed(
    server: Server, context: GameContext, tab: str, after: int | None
) -> list[tuple[int, str]]:
    """(SSE id, fragment) of every push the page gets from `after` until it has caught up with
    the journal as it stands now (then a short quiet wait for anything more)."""
    return [(seq, data) for seq, _event, data in pushed_events(server, context, tab, after)]


def pushed_events(
    server: Server, context: GameContext, tab: str, after: int | None
) -> list[tuple[int, str, str]]:
    """`pushed`, each with its SSE event name (`page`, `append`, `badge`, `cursor`)."""
    request = SimpleNamespace(app=server.app, scope={"state": {}})

    async def read() -> list[tuple[int, str, str]]:
        base = f"/games/{context.game.public_id}"
        sessionmaker = server.app.state.sessionmaker
        async with sessionmaker() as db:
            # `after` and the ids are the listener's cursor: the events it may see so far.
            stream_name = stream_of(context.game.public_id)
            newest = await journal.last_seq(db, stream_name)
            now = await journal.cursor_at(db, stream_name, listener_of(context), newest)
        target = now if after is not None and now > after else None
        stream = station_live.page_stream(request, context, tab, base, after)  # type: ignore[arg-type]
        out: list[tuple[int, str, str]] = []
        try:
            while True:
                # Generous until the journal's last visible event has come (a loaded machine
                # renders slowly); then only a short look for anything unexpected.
                waiting = target is not None and (not out or out[-1][0] < target)
                message = await asyncio.wait_for(anext(stream), 15.0 if waiting else 0.5)
                if message.comment is None:
                    out.append((int(str(message.id)), str(message.event), str(message.data)))
        except (TimeoutError, StopAsyncIteration):  # quiet, or ended by the server
            return out
        finally:
            await stream.aclose()

    found: list[tuple[int, str, str]] = server.blocking_portal.call(read)
    return found


def post_json(player: Visitor, table: Table, tail: str, fields: dict[str, str]) -> None:
    """Send one of the game's forms through the JSON API, as the page's script does."""
    page = player.get(f"/games/{table.game_id}/floor").text
    token = page.split('name="_csrf_token" value="')[1].split('"')[0]
    answer = player.http.post(
        f"/api/games/{table.game_id}/{tail}", json=fields, headers={"x-csrftoken": token}
    )
    assert answer.status_code == 200, answer.text


def whisper(player: Visitor, table: Table, to: int, text: str) -> None:
    """Whisper through the JSON API."""
    post_json(player, table, "whisper", {"recipient": table.codenames[to], "text": text})


def test_each_seat_streams_only_what_it_may_read(
    server: Server, run_db: RunDB, table: Table
) -> None:
    ring, station = ring_and_station(table)
    others = [s for s in range(6) if s not in (ring, station)]
    assert api_post(table.players[ring], table, "ring", "RINGLIVE1").status_code == 200
    whisper(table.players[ring], table, others[0], "WHISPERLIVE1")
    assert api_post(table.players[station], table, "floor", "FLOORLIVE1").status_code == 200
    for seat in range(6):
        context = context_of(run_db, table, seat)
        for tab in ("floor", "dossier"):
            messages = pushed(server, context, tab, 0)
            text = "".join(html for _, html in messages)
            assert ("RINGLIVE1" in text) == (is_ring(table.roles[seat]) and tab == "dossier")
            assert ("WHISPERLIVE1" in text) == (seat in (ring, others[0]) and tab == "dossier")
            if tab == "floor":
                assert "FLOORLIVE1" in text
                assert f"{table.codenames[ring]}</span> whispered to" in text
            ids = [seq for seq, _ in messages]
            assert ids == sorted(set(ids))
    # A Station player is not even woken by the Ring's message or the whisper's text.

    async def seen(db: AsyncSession) -> dict[int, list[str]]:
        stream = stream_of(table.game_id)
        return {
            seat: [row.kind for row in await journal.events_since(db, stream, 0, seat)]
            for seat in (ring, station)
        }

    kinds = run_db(seen)
    assert kinds[station] == ["whisper_announced", "message"]
    assert kinds[ring] == ["message", "whisper_announced", "whisper", "message"]


def test_a_reconnect_gets_exactly_what_it_missed(
    server: Server, run_db: RunDB, table: Table
) -> None:
    context = context_of(run_db, table, 1)
    api_post(table.players[0], table, "floor", "BEFORE1")
    first = pushed(server, context, "floor", 0)
    last_seen = first[-1][0]
    api_post(table.players[2], table, "floor", "AFTER1")
    again = pushed(server, context, "floor", last_seen)
    assert [seq for seq, _ in again] == [last_seen + 1]
    assert "AFTER1" in again[0][1]
    assert pushed(server, context, "floor", again[0][0]) == []


def live(html: str) -> str:
    """A page's live part, its CSRF token masked (the stub request of `pushed` carries none; a
    real stream request renders the session's own token, as the page does)."""
    return re.sub(r'name="_csrf_token" value="[^"]*"', "TOKEN", station_live.live_part(html))


def push_applied(
    server: Server, run_db: RunDB, table: Table, tab: str, act: Callable[[], None]
) -> tuple[str, str, str]:
    """Seat 3's `tab` before `act`, with the pushes `act` brought applied, and loaded afresh."""
    player = table.players[3]
    old = player.get(f"/games/{table.game_id}/{tab}").text
    after = int(old.split('data-live-after="')[1].split('"')[0])
    act()
    pushes = pushed_events(server, context_of(run_db, table, 3), tab, after)
    assert pushes, tab
    return old, applied(old, pushes), player.get(f"/games/{table.game_id}/{tab}").text


def test_the_page_after_a_push_equals_a_fresh_render(
    server: Server, run_db: RunDB, table: Table
) -> None:
    for sender, tab in enumerate(("floor", "dossier", "cable")):

        def act(sender: int = sender, tab: str = tab) -> None:
            api_post(table.players[0], table, "floor", f"VERIFY{tab}")
            whisper(table.players[sender], table, 3, f"VERIFYWHISPER{tab}")

        old, applied, fresh = push_applied(server, run_db, table, tab, act)
        assert live(applied) == live(fresh), tab
        assert live(applied) != live(old), tab  # on the Cable: the new badges of its tab bar


def test_host_notices_and_the_clock_are_pushed_to_every_open_page(
    server: Server, run_db: RunDB, table: Table
) -> None:
    """A pause, a resume and an extension reach every seat's and a spectator's open page: the
    notice on the Cable, the stopped or moved clock in the letterhead (S40, issue 5)."""
    host, player = table.players[0], table.players[4]
    game = f"/games/{table.game_id}"
    old = player.get(f"{game}/cable").text
    after = int(old.split('data-live-after="')[1].split('"')[0])
    for tool, seen in (
        ("pause", "The host paused the game."),
        ("resume", "The host resumed the game."),
        ("extend", "The host extended today"),
    ):
        fields = {"minutes": "60"} if tool == "extend" else {}
        answer = host.submit(f"{game}/host", fields, action=f"{game}/host/{tool}")
        assert answer.status_code == 200, (tool, answer.text)
        for seat in range(6):
            fragments = pushed(server, context_of(run_db, table, seat), "cable", after)
            assert fragments and seen in fragments[-1][1], (tool, seat)
        fragments = pushed(server, context_of(run_db, table, 4), "cable", after)
        if tool == "pause":
            assert "The host has paused the game: the clock stands still" in fragments[-1][1]
            assert "data-countdown" not in fragments[-1][1]
        else:
            assert "data-countdown" in fragments[-1][1]
        start = old.index(station_live.START) + len(station_live.START)
        end = old.index(station_live.END, start)
        applied = old[:start] + fragments[-1][1] + old[end:]
        fresh = player.get(f"{game}/cable").text
        assert live(applied) == live(fresh), tool
        old, after = fresh, fragments[-1][0]


def test_s43_a_pushed_claim_equals_a_fresh_render(
    server: Server, run_db: RunDB, table: Table
) -> None:
    """A claim on the Floor (S28) and a whispered one (S31) reach the open pages as the plain
    sentence a fresh load shows, marked as a claim."""
    names = table.codenames
    made = (
        ("floor", "claim/floor", {"kind": "role", "role": "analyst"}, "claims to be the Analyst."),
        (
            "dossier",
            "whisper/claim",
            {"kind": "stance", "stance": "suspect", "target": names[1], "recipient": names[3]},
            f"suspects {names[1]}.",
        ),
    )
    for tab, tail, fields, sentence in made:
        act = partial(post_json, table.players[0], table, tail, fields)
        _, applied, fresh = push_applied(server, run_db, table, tab, act)
        assert live(applied) == live(fresh), tab
        assert sentence in applied and 'class="claim-marker">claim<' in live(applied), tab
