"""A page's journal position read from this process's last known one (issue 15) says exactly
what `last_seq` and `cursor_at` say, for every seat and the public, cold or warm, at the
newest seq or at a given one; and a page's kept pieces never outlive a change. SQLite and
PostgreSQL."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.roles import is_ring
from deaddrop.server.live import journal
from deaddrop.server.live.known_positions import KNOWN_POSITIONS_KEY, KnownPositions
from deaddrop.server.station.live.looks import LOOKS_KEY
from deaddrop.server.station.live.stream import stream_of
from deaddrop.server.station.tabs.positions import position, position_and_looks
from deaddrop.server.station.tabs.seen import seen_of
from tests.server.station.games.helpers import game_row, user_named
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    six_players,
    started_table,
)
from tests.server.station.test_chat_routes import api_post, ring_and_station
from tests.server.station.test_live_stream import whisper

LISTENERS: list[journal.Listener] = [None, journal.EVERYONE, 0, 1, 2, 3, 4, 5]
Position = tuple[int, int]
Found = dict[str, tuple[Position, Position, Position]]


def positions(run_db: RunDB, table: Table, upto: int | None = None) -> Found:
    """Per listener: what the journal says, then `position` twice (cold, then warm)."""
    stream = stream_of(table.game_id)

    async def read(db: AsyncSession) -> Found:
        out: Found = {}
        newest = upto if upto is not None else await journal.last_seq(db, stream)
        for listener in LISTENERS:
            truth = (newest, await journal.cursor_at(db, stream, listener, newest))
            first = await position(db, stream, listener, upto)
            second = await position(db, stream, listener, upto)
            out[str(listener)] = (truth, first, second)
        return out

    found: Found = run_db(read)
    return found


def assert_all_agree(found: Found) -> None:
    for listener, (truth, first, second) in found.items():
        assert first == truth, listener
        assert second == truth, listener


def test_a_position_is_the_journals_last_seq_and_cursor_for_everyone(
    run_db: RunDB, table: Table
) -> None:
    ring, station = ring_and_station(table)
    assert_all_agree(positions(run_db, table))
    assert api_post(table.players[ring], table, "ring", "POSITION RING").status_code == 200
    whisper(table.players[ring], table, station, "POSITION WHISPER")  # private to two seats
    assert_all_agree(positions(run_db, table))  # warm now: only the rows after are read
    middle = positions(run_db, table)["None"][0][0]
    assert api_post(table.players[station], table, "floor", "POSITION FLOOR").status_code == 200
    assert_all_agree(positions(run_db, table))
    assert_all_agree(positions(run_db, table, upto=middle))  # an older seq than the kept one


def test_a_new_post_reaches_every_page_past_the_kept_pieces(table: Table) -> None:
    ring, station = ring_and_station(table)
    for player in table.players:  # every page's pieces kept at this position
        assert "POSITION NEWS" not in player.get(f"/games/{table.game_id}/floor").text
    assert api_post(table.players[station], table, "floor", "POSITION NEWS").status_code == 200
    for player in table.players:
        assert "POSITION NEWS" in player.get(f"/games/{table.game_id}/floor").text
    assert api_post(table.players[ring], table, "ring", "POSITION SECRET").status_code == 200
    for seat, player in enumerate(table.players):
        dossier = player.get(f"/games/{table.game_id}/dossier").text
        assert ("POSITION SECRET" in dossier) == (seat in ring_seats(table)), seat
        assert "POSITION SECRET" not in player.get(f"/games/{table.game_id}/floor").text


def _looks_written(server: TestClient[Litestar]) -> None:
    """Wait for the app's looks writer to have stored every look the pages recorded: the
    comparison reads the stored looks twice, and a write between the two would differ."""

    server.blocking_portal.call(server.app.state[LOOKS_KEY].all_written)


def test_the_position_with_the_looks_is_the_plain_position_and_looks(
    run_db: RunDB, table: Table, server: TestClient[Litestar]
) -> None:
    ring, station = ring_and_station(table)
    stream = stream_of(table.game_id)

    async def compare(db: AsyncSession) -> None:
        game = await game_row(db, table.game_id)
        newest = await journal.last_seq(db, stream)
        for seat in range(len(table.players)):
            user = await user_named(db, table.players[seat].username)
            for cold in (True, False):  # from the start of the stream, then from a kept one
                if cold:
                    db.info[KNOWN_POSITIONS_KEY] = KnownPositions()  # nothing known
                found = await position_and_looks(db, stream, seat, game.id, user.id)
                truth = (newest, await journal.cursor_at(db, stream, seat, newest))
                assert found == (*truth, await seen_of(db, game.id, user.id)), (seat, cold)

    run_db(compare)
    for player in table.players:  # looks recorded on two tabs
        assert player.get(f"/games/{table.game_id}/floor").status_code == 200
        assert player.get(f"/games/{table.game_id}/cable").status_code == 200
    assert api_post(table.players[ring], table, "ring", "LOOKS RING").status_code == 200
    whisper(table.players[ring], table, station, "LOOKS WHISPER")
    _looks_written(server)
    run_db(compare)


def ring_seats(table: Table) -> set[int]:
    """The seats of the Ring (they read the Ring Channel, S29)."""
    return {seat for seat, role in enumerate(table.roles) if is_ring(role)}
