"""Chat through HTTP: who posts and reads where (S14, S28–S30), whispers (S31), escaping, the
rate limit and paging back; on SQLite and PostgreSQL."""

from __future__ import annotations

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.roles import is_ring
from deaddrop.server.station.chat.channels import PAGE, RATE_COUNT
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.game.models import StationGame
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    set_spectators,
    six_players,
    started_table,
)
from tests.server.visitor import Visitor


def post(player: Visitor, table: Table, channel: str, text: str) -> httpx.Response:
    """Post through the page's form (a flash tells how it went)."""
    page = f"/games/{table.game_id}/floor"
    return player.submit(page, {"text": text}, action=f"/games/{table.game_id}/chat/{channel}")


def api_post(player: Visitor, table: Table, channel: str, text: str) -> httpx.Response:
    """Post through the JSON API."""
    page = player.get(f"/games/{table.game_id}/floor").text
    token = page.split('name="_csrf_token" value="')[1].split('"')[0]
    return player.http.post(
        f"/api/games/{table.game_id}/chat/{channel}",
        json={"text": text},
        headers={"x-csrftoken": token},
    )


def ring_and_station(table: Table) -> tuple[int, int]:
    """A Ring seat and a Station seat of the table."""
    ring = next(i for i, role in enumerate(table.roles) if is_ring(role))
    station = next(i for i, role in enumerate(table.roles) if not is_ring(role))
    return ring, station


def test_the_floor_is_read_by_all_and_spectators(
    table: Table, run_db: RunDB, client: Visitor
) -> None:
    assert "Message sent." in post(table.players[1], table, "floor", "FLOORTEXT1 hello").text
    for player in table.players:
        assert "FLOORTEXT1" in player.get(f"/games/{table.game_id}/floor").text
    token = set_spectators(run_db, table, True)
    assert "FLOORTEXT1" in client.get(f"/watch/{token}/floor").text
    assert client.get(f"/watch/{token}/chat/ring").status_code == 404


def test_the_ring_channel_is_the_rings_alone(table: Table) -> None:
    ring, station = ring_and_station(table)
    refused = api_post(table.players[station], table, "ring", "RINGTEXT0")
    assert refused.status_code == 422
    assert refused.json()["rule"] == "S29"
    assert "Message sent." in post(table.players[ring], table, "ring", "RINGTEXT1").text
    for seat, player in enumerate(table.players):
        dossier = player.get(f"/games/{table.game_id}/dossier").text
        assert ("RINGTEXT1" in dossier) == is_ring(table.roles[seat])
        assert "RINGTEXT0" not in dossier
        assert player.get(f"/games/{table.game_id}/chat/ring").status_code == (
            200 if is_ring(table.roles[seat]) else 404
        )
    ring_dossier = table.players[ring].get(f"/games/{table.game_id}/dossier").text
    assert "holds the order" in ring_dossier  # S29: the channel shows who holds the order


def test_the_archive_and_interrogation_refuse_the_living(table: Table) -> None:
    player = table.players[2]
    archive = api_post(player, table, "archive", "ARCHIVETEXT")
    assert archive.status_code == 422 and archive.json()["rule"] == "S30"
    interrogation = api_post(player, table, "interrogation", "INTERROGATIONTEXT")
    assert interrogation.status_code == 422 and interrogation.json()["rule"] == "S14"
    assert api_post(player, table, "nowhere", "x").status_code == 422


def test_text_is_escaped_codenames_highlighted_and_limited(table: Table) -> None:
    other = table.codenames[3]
    post(table.players[0], table, "floor", f"<script>alert(1)</script> ask {other.lower()}")
    page = table.players[1].get(f"/games/{table.game_id}/floor").text
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert f'<span class="codename">{other.lower()}</span>' in page
    too_long = api_post(table.players[0], table, "floor", "x" * 2001)
    assert too_long.status_code == 422 and "2000" in too_long.json()["detail"]
    assert api_post(table.players[0], table, "floor", "   ").status_code == 422


def test_the_rate_limit_says_how_long_to_wait(table: Table) -> None:
    for number in range(RATE_COUNT):
        assert api_post(table.players[0], table, "floor", f"m{number}").status_code == 200
    refused = api_post(table.players[0], table, "floor", "one too many")
    assert refused.status_code == 422
    assert "at most 5 messages every 15 seconds" in refused.json()["detail"]
    assert api_post(table.players[1], table, "floor", "someone else").status_code == 200


def test_history_pages_back(table: Table, run_db: RunDB) -> None:
    async def fill(db: AsyncSession) -> None:
        game = await db.scalar(select(StationGame).where(StationGame.public_id == table.game_id))
        assert game is not None
        for number in range(PAGE + 5):
            text = f"OLD{number:03d}END"
            db.add(StationMessage(game_id=game.id, channel="floor", day=1, seat=0, text=text))
        await db.commit()

    run_db(fill)
    floor = table.players[1].get(f"/games/{table.game_id}/floor").text
    assert "OLD054END" in floor and "OLD004END" not in floor
    link = floor.split('class="chat-older"><a href="')[1].split('"')[0]
    older = table.players[1].get(link.replace("&amp;", "&")).text
    assert "OLD004END" in older and "OLD000END" in older and "OLD054END" not in older


def test_a_whisper_is_announced_to_all_and_read_by_two(table: Table) -> None:
    sender, recipient = table.players[0], table.players[1]
    fields = {"recipient": table.codenames[1], "text": "WHISPERSECRET1"}
    page = f"/games/{table.game_id}/dossier"
    answer = sender.submit(page, fields, action=f"/games/{table.game_id}/whisper")
    assert "Whisper sent." in answer.text
    announcement = (
        f'{table.codenames[0]}</span> whispered to <span class="codename">{table.codenames[1]}'
    )
    for seat, player in enumerate(table.players):
        assert announcement in player.get(f"/games/{table.game_id}/floor").text
        dossier = player.get(page).text
        assert ("WHISPERSECRET1" in dossier) == (seat in (0, 1))
    assert "WHISPERSECRET1" in recipient.get(page).text
