"""A save queued on its game's writer lock reads its game and seat again once it gets the lock
(`read_again`): one statement straight through the driver, not an ORM refresh of each row, and
what another writer changed meanwhile (the version, a handed-over seat) is what it acts on."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station import CastVote
from deaddrop.engine.station.channels import Channel
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.hosting.states import RECENT
from deaddrop.server.station.chat.channels import do_post
from deaddrop.server.station.chat.models import StationMessage
from deaddrop.server.station.game import store
from deaddrop.server.station.game.access import access_game_for_player, read_again
from deaddrop.server.station.game.models import StationSeat
from deaddrop.server.station.game.store import STATION, known_later, names_state
from deaddrop.server.station.game.writes import touch
from deaddrop.server.station.play.service import do_act
from tests.server.station.games.helpers import Table, game_row, user_named, vote_in_own_session


def _refreshes_counted(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every ORM refresh made from now on, by row."""
    refreshed: list[Any] = []
    original = AsyncSession.refresh

    async def counting(self: AsyncSession, row: Any, *args: Any, **kwargs: Any) -> None:
        refreshed.append(row)
        await original(self, row, *args, **kwargs)

    monkeypatch.setattr(AsyncSession, "refresh", counting)
    return refreshed


def test_queued_saves_read_their_game_again_without_an_orm_refresh(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    refreshed = _refreshes_counted(monkeypatch)

    async def burst(_db: AsyncSession) -> list[int]:
        votes = (vote_in_own_session(table, seat, (seat + 1) % 6) for seat in range(6))
        return list(await asyncio.gather(*votes))

    assert sorted(table.run_db(burst)) == list(range(1, 7))  # each on the version before it
    assert refreshed == []
    assert table.game().version == 6


def test_queued_floor_posts_read_their_game_again_without_an_orm_refresh(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    refreshed = _refreshes_counted(monkeypatch)

    async def burst(_db: AsyncSession) -> None:
        sessionmaker = table.app.state.sessionmaker

        async def post(seat: int) -> None:
            async with sessionmaker() as session:
                user = await user_named(session, table.people[seat].username)
                context = await access_game_for_player(session, table.game_id, user)
                await do_post(session, context, Channel.FLOOR, f"from {seat}", table.clock.now())

        await asyncio.gather(*(post(seat) for seat in range(6)))

    async def posted(db: AsyncSession) -> list[str]:
        return list(await db.scalars(select(StationMessage.text).order_by(StationMessage.id)))

    table.run_db(burst)
    assert refreshed == []
    assert sorted(table.run_db(posted)) == [f"from {seat}" for seat in range(6)]


def test_a_save_queued_while_its_seat_was_handed_over_is_refused(table: Table) -> None:
    seat = 1

    async def queued(_db: AsyncSession) -> str:
        sessionmaker = table.app.state.sessionmaker
        lock = STATION.writer_lock(table.game_id)
        async with sessionmaker() as session:
            user = await user_named(session, table.people[seat].username)
            context = await access_game_for_player(session, table.game_id, user)
            assert context.seat_row is not None
            seat_id = context.seat_row.id
            await lock.acquire()  # another writer of this process holds the game
            save = asyncio.ensure_future(
                do_act(session, context, CastVote(seat, 2), clock=table.clock)
            )
            await asyncio.sleep(0)
            async with sessionmaker() as other:  # the seat goes to a bot meanwhile
                row = await other.scalar(select(StationSeat).where(StationSeat.id == seat_id))
                assert row is not None
                row.user_id, row.bot_level = None, "steady"
                touch(await game_row(other, table.game_id), table.clock.now())
                await other.commit()
            lock.release()
            with pytest.raises(Refused) as refused:
                await save
            assert context.seat_row is not None and context.seat_row.user_id is None
            return str(refused.value)

    assert "handed your seat" in table.run_db(queued)
    assert table.game().version == 0  # nothing was saved


def test_a_row_with_changes_of_its_own_is_left_to_the_orm(table: Table) -> None:
    async def check(session: AsyncSession) -> tuple[bool, bool]:
        user = await user_named(session, table.people[1].username)
        context = await access_game_for_player(session, table.game_id, user)
        context.game.title = "changed here"
        changed = await read_again(session, context)
        await session.rollback()  # expires every row
        expired = await read_again(session, context)
        return changed, expired

    assert table.run_db(check) == (False, False)


def test_a_clean_context_is_read_as_stored(table: Table) -> None:
    async def check(session: AsyncSession) -> tuple[bool, int, int]:
        user = await user_named(session, table.people[1].username)
        context = await access_game_for_player(session, table.game_id, user)
        async with table.app.state.sessionmaker() as other:
            other_user = await user_named(other, table.people[2].username)
            other_context = await access_game_for_player(other, table.game_id, other_user)
            await do_act(other, other_context, CastVote(2, 3), clock=table.clock)
        before = context.game.version
        return await read_again(session, context), before, context.game.version

    assert table.run_db(check) == (True, 0, 1)


def test_a_save_far_behind_names_its_targets_by_a_kept_state_not_a_replay(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def check(session: AsyncSession) -> list[str]:
        user = await user_named(session, table.people[1].username)
        context = await access_game_for_player(session, table.game_id, user)  # at version 0
        async with table.app.state.sessionmaker() as other:
            other_user = await user_named(other, table.people[2].username)
            other_context = await access_game_for_player(other, table.game_id, other_user)
            for number in range(RECENT + 4):  # past the versions kept
                choice = 3 + number % 3
                await do_act(other, other_context, CastVote(2, choice), clock=table.clock)

        async def no_replay(*_args: Any) -> Any:
            raise AssertionError("the log was replayed")

        monkeypatch.setattr(store, "replay_log", no_replay)
        state = await names_state(session, context.game)
        return [seat.codename for seat in state.seats]

    assert table.run_db(check) == [seat.codename for seat in table.state().seats]


def test_only_a_later_version_this_process_reached_makes_a_save_read_again(table: Table) -> None:
    async def check(session: AsyncSession) -> list[bool]:
        user = await user_named(session, table.people[1].username)
        context = await access_game_for_player(session, table.game_id, user)
        seen = [known_later(context.game)]  # read at the newest version: nothing to read
        await vote_in_own_session(table, 2, 3)
        seen.append(known_later(context.game))  # a writer of this process moved it on
        # A version only another process reached (read from the database, never cached
        # here) is as new as this process can tell: its save goes straight on.
        context.game.version += 5
        seen.append(known_later(context.game))
        return seen

    assert table.run_db(check) == [False, True, False]
