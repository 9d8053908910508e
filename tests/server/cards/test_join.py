"""Taking a seat: every answer to a join says what happened, never "You took a seat." falsely."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.accounts.models import User
from deaddrop.server.cards.access import access_table_by_invite
from deaddrop.server.cards.identity import Who
from deaddrop.server.cards.service import Joined, do_join
from tests.server.cards.helpers import (
    RunDb,
    join_by_invite,
    open_table,
    play_to_the_end,
    seat_rows,
    table_row,
)
from tests.server.visitor import Visitor

TOOK = "You took a seat."
ALREADY = "You already sit at this table."


def _join_public(visitor: Visitor, table_id: str) -> str:
    page = visitor.submit(f"/cards/t/{table_id}", {}, action=f"/cards/t/{table_id}/join")
    assert page.status_code == 200, page.text
    return page.text


def test_joining_a_full_public_table_where_i_sit_says_i_already_sit_there(
    alice: Visitor, bob: Visitor, run_db: RunDb
) -> None:
    table_id = open_table(alice, players="2", seat1="friend", public="yes")
    assert TOOK in _join_public(bob, table_id)
    assert table_row(run_db, table_id).status == "playing"
    again = _join_public(bob, table_id)
    assert ALREADY in again and TOOK not in again
    # The host sat down when opening the table: the same answer.
    host = _join_public(alice, table_id)
    assert ALREADY in host and TOOK not in host
    assert [s.name for s in seat_rows(run_db, table_id)] == ["Alice Liddell", "Bob Marley"]


def test_joining_by_invite_where_i_sit_says_i_already_sit_there(
    alice: Visitor, bob: Visitor, run_db: RunDb
) -> None:
    table_id = open_table(alice, players="3", seat1="friend", seat2="friend")
    assert TOOK in join_by_invite(bob, run_db, table_id).text
    # The table still waits for its third player: a second click takes no second seat.
    again = join_by_invite(bob, run_db, table_id).text
    assert ALREADY in again and TOOK not in again
    assert sum(s.is_free for s in seat_rows(run_db, table_id)) == 1


def test_joining_a_finished_table_says_the_game_is_over(
    alice: Visitor, bob: Visitor, outsider: Visitor, run_db: RunDb
) -> None:
    table_id = open_table(alice, players="2", seat1="friend", public="yes", tokens_to_win="1")
    _join_public(bob, table_id)
    play_to_the_end({0: alice, 1: bob}, run_db, table_id, fold=True)
    late = _join_public(outsider, table_id)
    assert "This game is over." in late and TOOK not in late
    assert "Every seat at this table is taken" not in late


@pytest.mark.parametrize("players", ["2", "3"])
def test_a_second_join_from_a_page_loaded_before_the_first_says_i_already_sit_there(
    alice: Visitor, bob: Visitor, run_db: RunDb, server: Any, players: str
) -> None:
    # Two clicks of "Take a seat" (or two tabs): both loaded the table while the seat was free.
    table_id = open_table(alice, players=players, seat1="friend", seat2="friend")
    token = table_row(run_db, table_id).invite_token
    sessions: async_sessionmaker[AsyncSession] = server.app.state.sessionmaker
    rt = server.app.state.cards

    async def join_twice() -> tuple[Joined, Joined]:
        async with sessions() as first, sessions() as second:
            user = await first.scalar(select(User).where(User.username == "bob"))
            again = await second.scalar(select(User).where(User.username == "bob"))
            early = await access_table_by_invite(first, token, Who(user, None))
            late = await access_table_by_invite(second, token, Who(again, None))
            return (
                await do_join(first, rt, early, Who(user, None)),
                await do_join(second, rt, late, Who(again, None)),
            )

    took, second = server.blocking_portal.call(join_twice)
    assert took == Joined(1, new=True)
    assert second == Joined(1, new=False)
    held = [s.seat for s in seat_rows(run_db, table_id) if s.name == "Bob Marley"]
    assert held == [1]
