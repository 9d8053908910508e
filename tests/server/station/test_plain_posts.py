"""Plain posts (issue 15, stop 48): a JSON chat message done on the values the session's read
gives. Stored, journaled to exactly the seats that may read it (S28, S29) and answered as the
full path does (the same test passes with the plain way on and off, on SQLite and PostgreSQL);
every refusal is left to the full path, which answers it in its own words."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.roles import is_ring
from deaddrop.server.cookies import CSRF_COOKIE
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.chat import posting
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.game.store import STATION
from tests.server.station.plain_fixtures import (  # noqa: F401 (fixture)
    known,
    plain_outcomes,
    switched,
)
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    six_players,
    started_table,
)
from tests.server.visitor import Visitor


@pytest.fixture(params=[True, False], ids=["plain", "full"])
def plain_on(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """The plain way on, then off (every one then goes the full way)."""
    return switched(request, monkeypatch, posting)


def chat(player: Visitor, table: Table, channel: str, text: str) -> httpx.Response:
    """A JSON message as the chat box's script sends it."""
    headers = {"x-csrftoken": player.http.cookies[CSRF_COOKIE]}
    path = f"/api/games/{table.game_id}/chat/{channel}"
    return player.http.post(path, json={"text": text}, headers=headers)


def journaled(run_db: RunDB, table: Table) -> list[Any]:
    """The game's journal rows of messages, in order."""

    async def read(db: AsyncSession) -> list[Any]:
        rows = await db.execute(
            select(LiveEvent.seq, LiveEvent.public, LiveEvent.seats, LiveEvent.payload)
            .where(LiveEvent.stream == STATION.stream(table.game_id), LiveEvent.kind == "message")
            .order_by(LiveEvent.seq)
        )
        return list(rows)

    found: list[Any] = run_db(read)
    return found


def messages(run_db: RunDB) -> list[StationMessage]:
    """Every stored message, in order."""

    async def read(db: AsyncSession) -> list[StationMessage]:
        return list(await db.scalars(select(StationMessage).order_by(StationMessage.id)))

    found: list[StationMessage] = run_db(read)
    return found


def test_a_floor_post_is_stored_journaled_and_answered_as_the_full_path_does(
    table: Table, run_db: RunDB, plain_on: bool, plainly: list[bool]
) -> None:
    bob = table.players[1]
    known(bob, table)
    answer = chat(bob, table, "floor", "The drop is at the bridge.\r\nBring the key.")
    assert answer.status_code == 200, answer.text
    (row,) = journaled(run_db, table)
    # The poster's cursor: the journal's rows Bob may read, this one the last of them.
    assert answer.json() == {"ok": True, "message": "Message sent.", "seq": 1}
    (stored,) = messages(run_db)
    assert (stored.text, stored.channel, stored.seat, stored.day) == (
        "The drop is at the bridge.\nBring the key.",
        "floor",
        1,
        1,
    )
    assert row.public and row.seats == [] and row.payload["id"] == stored.id  # S28
    assert plainly == [plain_on]


def test_a_ring_post_is_journaled_to_the_ring_alone(
    table: Table, run_db: RunDB, plain_on: bool, plainly: list[bool]
) -> None:
    """S29: the Ring Channel's readers are the Ring's seats, never a Station player's."""
    ring = [seat for seat, role in enumerate(table.roles) if is_ring(role)]
    poster = table.players[ring[0]]
    known(poster, table)
    assert chat(poster, table, "ring", "We strike at the Pouch.").status_code == 200
    (row,) = journaled(run_db, table)
    assert not row.public and sorted(row.seats) == ring
    station = next(seat for seat in range(len(table.roles)) if seat not in ring)
    outsider = table.players[station]
    known(outsider, table)
    refused = chat(outsider, table, "ring", "Let me in.")
    assert refused.status_code == 422 and refused.json()["rule"] == "S29"
    assert plainly == [plain_on, False]


def test_refused_posts_are_left_to_the_full_path(
    table: Table, run_db: RunDB, plainly: list[bool]
) -> None:
    bob = table.players[1]
    known(bob, table)
    assert chat(bob, table, "floor", "   ").status_code == 422  # nothing to say
    assert chat(bob, table, "nowhere", "Hello?").status_code == 422  # no such channel
    assert chat(bob, table, "floor", "x" * 5000).status_code == 422  # too long
    assert messages(run_db) == []
    assert plainly == [False, False, False]


def test_the_flood_limit_is_the_full_paths_refusal(
    table: Table, run_db: RunDB, plainly: list[bool]
) -> None:
    bob = table.players[1]
    known(bob, table)
    answers = [chat(bob, table, "floor", f"Post {number}.") for number in range(8)]
    assert [answer.status_code for answer in answers] == [200] * 5 + [422] * 3
    assert "at most 5 messages every 15 seconds" in answers[-1].json()["detail"]
    assert plainly == [True] * 5 + [False] * 3
    assert len(messages(run_db)) == 5
