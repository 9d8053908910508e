"""What changed, pushed once per audience (issue 15): a new Floor message is appended to an open
Floor panel, a tab's badge grows (a region of the Floor is replaced: test_live_regions.py), and
the page with those pushes applied (as station_live.js applies them) equals a fresh render for
that reader; secret messages stay with their audience. SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.accounts.models import User
from deaddrop.server.db.base import utcnow
from deaddrop.server.station.chat.channels import PAGE
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.station.live import looks
from deaddrop.server.station.tabs.seen_models import StationTabSeen
from tests.server.station.live_applied import applied
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    six_players,
    started_table,
)
from tests.server.station.test_chat_routes import api_post, ring_and_station
from tests.server.station.test_live_stream import context_of, live, pushed_events

Server = TestClient[Litestar]
TABS = ("floor", "cable", "dossier")


def after_of(page: str) -> int:
    """The cursor a page was built at."""
    return int(page.split('data-live-after="')[1].split('"')[0])


def check_pushed(
    server: Server, run_db: RunDB, table: Table, seat: int, tab: str, text: str, by: int = 0
) -> list[tuple[int, str, str]]:
    """Seat `seat`'s open `tab` while seat `by` posts `text` on the Floor: the pushes, after
    checking that the page they make equals a fresh render."""
    player = table.players[seat]
    old = player.get(f"/games/{table.game_id}/{tab}").text
    if by == seat:  # from this very page (api_post would look at the Floor first)
        token = old.split('name="_csrf_token" value="')[1].split('"')[0]
        answer = player.http.post(
            f"/api/games/{table.game_id}/chat/floor",
            json={"text": text},
            headers={"x-csrftoken": token},
        )
    else:
        answer = api_post(table.players[by], table, "floor", text)
    assert answer.status_code == 200, answer.text
    pushes = pushed_events(server, context_of(run_db, table, seat), tab, after_of(old))
    fresh = player.get(f"/games/{table.game_id}/{tab}").text
    assert live(applied(old, pushes)) == live(fresh), (tab, pushes)
    return pushes


def test_a_floor_post_is_appended_to_open_floor_pages(
    server: Server, run_db: RunDB, table: Table
) -> None:
    assert api_post(table.players[1], table, "floor", "FIRST").status_code == 200
    for seat in (3, 4):
        pushes = check_pushed(server, run_db, table, seat, "floor", f"APPENDED{seat}")
        assert [event for _, event, _ in pushes] == ["append"]
        assert f"APPENDED{seat}" in json.loads(pushes[0][2])["html"]


def test_a_floor_post_grows_the_floor_badge_elsewhere(
    server: Server, run_db: RunDB, table: Table
) -> None:
    assert api_post(table.players[1], table, "floor", "FIRST").status_code == 200
    for tab in ("cable", "dossier", "roster"):
        pushes = check_pushed(server, run_db, table, 3, tab, f"BADGE{tab}")
        assert [(event, json.loads(data)) for _, event, data in pushes] == [
            ("badge", {"tab": "floor", "add": 1})
        ]
    # One's own post is no news to oneself: only the cursor moves.
    pushes = check_pushed(server, run_db, table, 3, "cable", "MINE", by=3)
    assert [event for _, event, _ in pushes] == ["cursor"]


def test_a_full_floor_panel_drops_its_oldest_as_a_fresh_load_does(
    server: Server, run_db: RunDB, table: Table
) -> None:
    async def fill(db: AsyncSession) -> None:
        long_ago = utcnow() - timedelta(hours=1)  # outside the chat's rate window
        for number in range(PAGE + 1):
            db.add(
                StationMessage(
                    game_id=await _game_id(db, table),
                    channel="floor",
                    day=1,
                    seat=number % 6,
                    text=f"OLD{number}",
                    created_at=long_ago,
                )
            )
        await db.commit()

    run_db(fill)
    pushes = check_pushed(server, run_db, table, 2, "floor", "TRIMMED")
    assert [event for _, event, _ in pushes] == ["append"]
    assert json.loads(pushes[0][2])["older"] is not None


def test_a_secret_message_reaches_only_its_channel_as_a_badge(
    server: Server, run_db: RunDB, table: Table
) -> None:
    ring, station = ring_and_station(table)
    pages = {
        seat: table.players[seat].get(f"/games/{table.game_id}/floor").text
        for seat in (ring, station)
    }
    assert api_post(table.players[ring], table, "ring", "RINGSECRET").status_code == 200
    for seat, old in pages.items():
        pushes = pushed_events(server, context_of(run_db, table, seat), "floor", after_of(old))
        assert all("RINGSECRET" not in data for _, _, data in pushes)
        fresh = table.players[seat].get(f"/games/{table.game_id}/floor").text
        assert live(applied(old, pushes)) == live(fresh)
        # The author's own message is no news on its own pages; the Station seat is not woken.
        assert [event for _, event, _ in pushes] == (["cursor"] if seat == ring else []), seat


async def _game_id(db: AsyncSession, table: Table) -> int:
    found = await db.scalar(select(StationGame.id).where(StationGame.public_id == table.game_id))
    assert found is not None
    return found


def test_looks_are_written_in_statements_of_a_bounded_size(
    run_db: RunDB, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many looks at once (thousands of open pages) are written a bounded number a statement, so
    SQLite's parameter limit is never met; every look lands, and a look never moves back."""
    monkeypatch.setattr(looks, "ROWS_A_STATEMENT", 2)

    async def write(db: AsyncSession) -> list[tuple[int, str, int]]:
        game = await db.scalar(select(StationGame).where(StationGame.public_id == table.game_id))
        assert game is not None
        users = list(await db.scalars(select(User.id).order_by(User.id)))[:3]
        await looks._upsert(db, {(game.id, user, tab): 5 for user in users for tab in TABS})
        await looks._upsert(db, {(game.id, users[0], "floor"): 2, (game.id, users[1], "cable"): 9})
        seen = await db.execute(
            select(StationTabSeen.user_id, StationTabSeen.tab, StationTabSeen.seq).where(
                StationTabSeen.game_id == game.id, StationTabSeen.user_id.in_(users)
            )
        )
        return sorted((user, tab, seq) for user, tab, seq in seen)

    written = run_db(write)
    assert len(written) == 3 * len(TABS)
    assert {seq for _user, _tab, seq in written} == {5, 9}  # floor stays at 5, cable moves to 9
    assert sum(seq == 9 for _user, _tab, seq in written) == 1
