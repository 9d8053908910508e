"""Plain saves (issue 15, stop 48): a player's JSON save done on the values the session's read
gives, with no ORM object made. Each save is stored, journaled, cached and answered exactly as
`do_act` on the full path does it (the same test passes with the plain way on and off, on
SQLite and PostgreSQL), and every case out of the ordinary is left to the full path, which
answers it as it always did."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from deaddrop.engine.station import ENGINE, CastVote, State
from deaddrop.server.accounts.models import User
from deaddrop.server.cookies import CSRF_COOKIE
from deaddrop.server.hosting import together
from deaddrop.server.hosting.states import ActionLog
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.settings import Settings
from deaddrop.server.station.game.models import StationAction, StationGame, StationSeat
from deaddrop.server.station.game.store import STATION, LogTail, kept_state, load_state
from deaddrop.server.station.game.writes import table_epoch
from deaddrop.server.station.play import routes
from tests.server.conftest import Database
from tests.server.station.plain_fixtures import (  # noqa: F401 (fixture)
    known,
    plain_outcomes,
    set_game,
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
    return switched(request, monkeypatch, routes)


def post(player: Visitor, table: Table, tail: str, fields: dict[str, Any]) -> httpx.Response:
    """A JSON save as the page's script sends it."""
    headers = {"x-csrftoken": player.http.cookies[CSRF_COOKIE]}
    return player.http.post(f"/api/games/{table.game_id}/{tail}", json=fields, headers=headers)


def stored(run_db: RunDB, table: Table) -> tuple[StationGame, list[StationAction], list[Any]]:
    """The game row, its log and its journal as stored."""

    async def read(db: AsyncSession) -> tuple[StationGame, list[StationAction], list[Any]]:
        game = await db.scalar(select(StationGame).where(StationGame.public_id == table.game_id))
        assert game is not None
        log = list(await db.scalars(select(StationAction).where(StationAction.game_id == game.id)))
        events = await db.execute(
            select(LiveEvent.seq, LiveEvent.kind, LiveEvent.public, LiveEvent.seats)
            .add_columns(LiveEvent.payload)
            .where(LiveEvent.stream == STATION.stream(table.game_id))
            .order_by(LiveEvent.seq)
        )
        return game, sorted(log, key=lambda entry: entry.seq), list(events)

    found: tuple[StationGame, list[StationAction], list[Any]] = run_db(read)
    return found


def state_at(run_db: RunDB, table: Table) -> State:
    """The game's engine state as stored now."""

    async def read(db: AsyncSession) -> State:
        game = await db.scalar(select(StationGame).where(StationGame.public_id == table.game_id))
        assert game is not None
        return await load_state(db, game)

    state: State = run_db(read)
    return state


def test_a_vote_is_stored_journaled_cached_and_answered_as_do_act_does(
    table: Table, run_db: RunDB, plain_on: bool, plainly: list[bool]
) -> None:
    bob = table.players[1]
    known(bob, table)
    before_game, before_log, before_journal = stored(run_db, table)
    before = state_at(run_db, table)
    target = table.codenames[2]
    answer = post(bob, table, "vote", {"vote": target})
    assert answer.status_code == 200, answer.text
    action = CastVote(1, 2)
    after, events = ENGINE.apply(before, action)
    assert answer.json() == {"ok": True, "message": "Vote saved.", "version": table_epoch(after)}
    assert "set-cookie" not in answer.headers  # the session unchanged: not written
    game, log, journal = stored(run_db, table)
    # The game row: one version on, conditional on the one read (its row version moved too).
    assert game.version == before_game.version + 1
    assert game.row_version == before_game.row_version + 1
    assert game.day == after.day and game.updated_at > before_game.updated_at
    # The log: the action, at the new version, by Bob, on the day it was taken.
    (entry,) = log[len(before_log) :]
    assert (entry.seq, entry.day) == (game.version, before.day)
    assert entry.action == ENGINE.action_to_json(action)
    assert entry.user_id == run_db(_user_id("bob"))
    # The journal: the engine's events, in order, each to its own audience.
    new = journal[len(before_journal) :]
    assert [(row.kind, row.public, sorted(row.seats), row.payload) for row in new] == [
        (e.kind, e.audience.public, sorted(e.audience.seats), dict(e.payload)) for e in events
    ]
    last = before_journal[-1].seq if before_journal else 0
    assert [row.seq for row in new] == list(range(last + 1, last + 1 + len(events)))
    # The state this process keeps is the engine's at the new version.
    assert STATION.states.get(table.game_id) == (game.version, after)
    assert plainly == [plain_on]


def test_saves_of_every_kind_go_plainly_and_mark_done_brings_the_pouch_on(
    table: Table, run_db: RunDB, plain_on: bool, plainly: list[bool]
) -> None:
    """S41: once every seat is done in a game with the early Pouch, the deadline is now."""

    set_game(run_db, table, early_pouch=True)
    for player in table.players:
        known(player, table)
    bob = table.players[1]
    assert post(bob, table, "vote", {"vote": "abstain"}).status_code == 200
    assert post(bob, table, "vote/withdraw", {}).status_code == 200
    assert post(bob, table, "final-cable", {"text": "It was\r\nthe owl."}).status_code == 200
    assert state_at(run_db, table).final_cables[1] == "It was\nthe owl."
    for player in table.players:
        assert post(player, table, "done", {"done": "yes"}).status_code == 200, player.username
    # Due at once: the runner sends today's Pouch now, not at tomorrow evening's deadline.
    deadline = time.monotonic() + 10
    while not state_at(run_db, table).history and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(state_at(run_db, table).history) == 1
    assert plainly == [plain_on] * (3 + len(table.players))


def _cached(table: Table) -> tuple[int, State]:
    found = STATION.states.get(table.game_id)
    assert found is not None
    return found


def _user_id(username: str) -> Any:
    async def read(db: AsyncSession) -> int | None:
        return await db.scalar(select(User.id).where(User.username == username))

    return read


def test_a_refused_save_is_left_to_the_full_path(table: Table, plainly: list[bool]) -> None:
    bob = table.players[1]
    known(bob, table)
    refused = post(bob, table, "vote", {"vote": "NOBODY"})
    assert refused.status_code == 422 and refused.json()["rule"] == "S3"
    stale = post(bob, table, "vote", {"vote": table.codenames[2], "version": 7})
    assert stale.status_code == 409 and "moved on" in stale.json()["detail"]
    assert plainly == [False, False]


def test_a_session_to_renew_or_not_seen_yet_is_left_to_the_full_path(
    table: Table, plainly: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    from deaddrop.server import sessions

    bob = table.players[1]
    known(bob, table)

    class Tomorrow(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return datetime.now(tz) + timedelta(days=1)

    monkeypatch.setattr(sessions, "datetime", Tomorrow)
    renewed = post(bob, table, "vote", {"vote": table.codenames[2]})
    assert renewed.status_code == 200 and "set-cookie" in renewed.headers
    assert plainly == [False]


def test_a_state_kept_before_the_version_read_is_brought_to_it_from_the_log(
    table: Table, run_db: RunDB, plainly: list[bool]
) -> None:
    """As after another process's saves: the entries since the newest state kept, replayed."""
    bob, carol = table.players[1], table.players[2]
    known(bob, table)
    known(carol, table)
    assert post(carol, table, "vote", {"vote": table.codenames[3]}).status_code == 200
    kept = STATION.states._states[table.game_id]
    assert kept[-1][0] == _cached(table)[0]
    kept.pop()  # the newest forgotten, as if another process had written it
    assert post(bob, table, "vote", {"vote": table.codenames[2]}).status_code == 200
    assert state_at(run_db, table).votes[1:3] == (2, 3)  # both: Carol's replayed under Bob's
    assert _cached(table)[1] == state_at(run_db, table)
    assert plainly == [True, True]


def test_the_entries_to_replay_come_with_the_sessions_read(
    table: Table, run_db: RunDB, plainly: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log's entries after the newest state kept are read in the session's own statement
    (game/plain_member.py), not in one of their own; a tail that does not start at the state
    kept, or does not reach the version, is read again (`kept_state`)."""
    bob, carol = table.players[1], table.players[2]
    known(bob, table)
    known(carol, table)
    assert post(carol, table, "vote", {"vote": table.codenames[3]}).status_code == 200
    STATION.states._states[table.game_id].pop()  # as if another process had written it
    after = ActionLog.after
    reads: list[tuple[int, int]] = []

    async def read(log: ActionLog, db: AsyncSession, game: int, start: int, upto: int) -> Any:
        reads.append((start, upto))
        return await after(log, db, game, start, upto)

    monkeypatch.setattr(ActionLog, "after", read)
    assert post(bob, table, "vote", {"vote": table.codenames[2]}).status_code == 200
    assert plainly == [True, True] and reads == []
    version, state = _cached(table)

    async def brought(db: AsyncSession, tail: LogTail) -> State | None:
        game = await db.scalar(select(StationGame).where(StationGame.public_id == table.game_id))
        assert game is not None
        return await kept_state(db, game.id, game.public_id, game.version, tail)

    for wrong in (LogTail(version - 2, []), LogTail(version - 1, [])):
        STATION.states._states[table.game_id].pop()  # kept at version - 1 again
        reads.clear()
        assert run_db(partial(brought, tail=wrong)) == state
        assert reads == [(version - 1, version)]


def test_a_state_not_kept_at_the_version_read_is_left_to_the_full_path(
    table: Table, run_db: RunDB, plainly: list[bool]
) -> None:
    """A game this process keeps no state of: the full path replays it from its setup."""
    bob = table.players[1]
    known(bob, table)
    STATION.states._states.pop(table.game_id)  # as another process finds it
    assert post(bob, table, "vote", {"vote": table.codenames[2]}).status_code == 200
    assert state_at(run_db, table).votes[1] == 2
    assert plainly == [False]


def test_a_seat_with_a_bot_standing_in_is_left_to_the_full_path(
    table: Table, run_db: RunDB, plainly: list[bool]
) -> None:
    """S42: a person's own save ends the stand-in (the full path's `back_on_save`)."""
    bob = table.players[1]
    known(bob, table)

    async def stand_in(db: AsyncSession) -> None:
        game = await db.scalar(select(StationGame).where(StationGame.public_id == table.game_id))
        assert game is not None
        await db.execute(
            update(StationSeat)
            .where(StationSeat.game_id == game.id, StationSeat.seat == 1)
            .values(bot_level="standard")
        )
        await db.commit()

    run_db(stand_in)
    assert post(bob, table, "vote", {"vote": table.codenames[2]}).status_code == 200
    assert plainly == [False]


def test_a_lost_race_for_the_row_is_left_to_the_full_path(
    table: Table, run_db: RunDB, plainly: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing of the plain try is stored; the full path reads again and saves."""
    bob = table.players[1]
    known(bob, table)
    write_row = together.write_row
    lost: list[bool] = []

    async def losing(*args: Any) -> int | None:
        if not lost:
            lost.append(True)
            raise StaleDataError("another process wrote first")
        return await write_row(*args)

    monkeypatch.setattr(together, "write_row", losing)
    version = _cached(table)[0]
    assert post(bob, table, "vote", {"vote": table.codenames[2]}).status_code == 200
    game, log, _journal = stored(run_db, table)
    assert game.version == version + 1 and [entry.seq for entry in log][-1] == version + 1
    assert plainly == [False]


def test_a_paused_game_is_left_to_the_full_path(
    table: Table, run_db: RunDB, plainly: list[bool]
) -> None:
    bob = table.players[1]
    known(bob, table)

    set_game(run_db, table, status="paused")
    refused = post(bob, table, "vote", {"vote": table.codenames[2]})
    assert refused.status_code == 422 and "paused" in refused.json()["detail"]
    assert plainly == [False]


class TestWithoutSharedCommits:
    """On SQLite with shared commits off (`SHARED_COMMITS=0`) a save's writes need a pooled
    connection of its own: every save goes the full way."""

    @pytest.fixture
    def settings(self, database: Database) -> Settings:
        return database.settings(shared_commits=False)

    def test_a_vote_goes_the_full_way(
        self, table: Table, run_db: RunDB, plainly: list[bool], database: Database
    ) -> None:
        bob = table.players[1]
        known(bob, table)
        assert post(bob, table, "vote", {"vote": table.codenames[2]}).status_code == 200
        assert state_at(run_db, table).votes[1] == 2
        # PostgreSQL writes in one statement whatever the setting says.
        assert plainly == [database.backend == "postgresql"]
