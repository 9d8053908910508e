"""The table's event streams: each seat gets its own view only (C12), watchers the public one.

The streams are read straight from the SSE generator in the app's event loop (the test client
cannot read an endless response); the rendering is the page's own, from a request stub.
"""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.cards import Grab, ShareInfo, SwapStash, legal_actions
from deaddrop.server.cards import live
from deaddrop.server.cards.access import TableContext, seats_of
from deaddrop.server.cards.models import CardsTable
from deaddrop.server.cards.table_state import stream_of
from deaddrop.server.live import journal
from tests.server.cards.helpers import (
    RunDb,
    fields_for,
    join_by_invite,
    open_table,
    post_move,
    state_of,
)
from tests.server.visitor import Visitor

Server = TestClient[Litestar]
_MY_HAND = re.compile(r'aria-label="My hand">.*?<p class="cards-row">(.*?)</p>', re.S)


def hand_shown(html: str) -> list[int]:
    """The cards of "My hand" on a rendered table."""
    found = _MY_HAND.search(html)
    assert found is not None
    return [int(value) for value in re.findall(r'data-value="(\d)"', found.group(1))]


def stream_messages(
    server: Server, run_db: RunDb, table_id: str, seat: int | None, after: int = 0
) -> list[str]:
    """Every table fragment the listener of `seat` gets when replaying from `after`."""

    async def context(db: AsyncSession) -> TableContext:
        table = await db.scalar(select(CardsTable).where(CardsTable.public_id == table_id))
        assert table is not None
        seats = await seats_of(db, table)
        return TableContext(table, seats, None if seat is None else seats[seat])

    found: TableContext = run_db(context)
    request = SimpleNamespace(app=server.app, scope={"state": {}})

    async def read() -> list[str]:
        stream = live.table_stream(request, found, after)  # type: ignore[arg-type]
        out: list[str] = []
        try:
            while True:
                message = await asyncio.wait_for(anext(stream), 1.0)
                if message.comment is None:
                    out.append(str(message.data))
        except TimeoutError:
            return out
        finally:
            await stream.aclose()

    messages: list[str] = server.blocking_portal.call(read)
    return messages


def journal_rows(run_db: RunDb, table_id: str, listener: Any) -> list[Any]:
    """The journaled events the listener may see."""

    async def fetch(db: AsyncSession) -> list[Any]:
        table = await db.scalar(select(CardsTable).where(CardsTable.public_id == table_id))
        assert table is not None
        return await journal.events_since(db, stream_of(table), 0, listener)

    rows: list[Any] = run_db(fetch)
    return rows


def trade_with_the_bot(
    players: dict[int, Visitor], run_db: RunDb, table_id: str
) -> tuple[int, int]:
    """A person trades privately with the bot (seat 2); returns (that person, the other)."""
    for _ in range(20):
        state = state_of(run_db, table_id)
        assert state.pending is not None
        mover = state.pending.seat
        options = legal_actions(state)
        trades = [a for a in options if isinstance(a, ShareInfo) and a.target == 2]
        # Fillers are public (Swap the Stash, or the first other option), so no private trade
        # between the two people muddies what each stream may show.
        swaps = [a for a in options if isinstance(a, SwapStash)]
        filler = swaps[0] if swaps else next(a for a in options if not isinstance(a, Grab))
        move = trades[0] if trades else filler
        assert post_move(players[mover], table_id, fields_for(move), json=True).is_success
        if trades:
            return mover, 1 - mover
    raise AssertionError("nobody got to trade with the bot")


def test_each_seat_stream_carries_only_its_own_view(
    alice: Visitor, bob: Visitor, run_db: RunDb, server: Server
) -> None:
    table_id = open_table(alice, players="3", seat1="friend", seat2="heuristic")
    join_by_invite(bob, run_db, table_id)
    mover, other = trade_with_the_bot({0: alice, 1: bob}, run_db, table_id)
    state = state_of(run_db, table_id)
    mine = stream_messages(server, run_db, table_id, mover)
    theirs = stream_messages(server, run_db, table_id, other)
    assert mine and theirs
    # C4: only the two parties see the cards of a trade: each stream shows exactly the
    # private trades its seat was party to (the bot may have traded with either person).
    for seat, messages in ((mover, mine), (other, theirs)):
        own_trades = [
            row
            for row in journal_rows(run_db, table_id, seat)
            if row.kind == "share_info_cards" and seat in row.seats
        ]
        assert messages[-1].count("Private trade") == len(own_trades)
    assert "Private trade" in mine[-1]
    # C12: each seat's stream shows its own hand and no other.
    assert "Your hand for round 1" in theirs[-1]
    for seat, messages in ((mover, mine), (other, theirs)):
        assert hand_shown(messages[-1]) == list(state.hands[seat])
    # The journal's audiences: no seat may read another's private event.
    for listener in (0, 1):
        for row in journal_rows(run_db, table_id, listener):
            assert row.public or listener in row.seats
    private_kinds = {r.kind for r in journal_rows(run_db, table_id, other) if not r.public}
    assert "hand" in private_kinds
    # The trade just made, between the mover and the bot, never reaches the other person.
    everything = journal_rows(run_db, table_id, journal.EVERYONE)
    trade = [row for row in everything if row.kind == "share_info_cards"][-1]
    assert set(trade.seats) == {mover, 2}
    assert trade.seq not in {row.seq for row in journal_rows(run_db, table_id, other)}


def test_a_reconnect_replays_from_last_event_id(
    alice: Visitor, bob: Visitor, run_db: RunDb, server: Server
) -> None:
    table_id = open_table(alice, players="3", seat1="friend", seat2="random")
    join_by_invite(bob, run_db, table_id)
    seen = len(journal_rows(run_db, table_id, 0))
    trade_with_the_bot({0: alice, 1: bob}, run_db, table_id)
    everything = journal_rows(run_db, table_id, journal.EVERYONE)
    newest = everything[-1].seq
    assert stream_messages(server, run_db, table_id, 0, after=newest) == []
    missed = stream_messages(server, run_db, table_id, 0, after=everything[seen].seq)
    assert len(missed) >= 1


def test_watchers_of_a_public_table_get_the_public_view_only(
    alice: Visitor, bob: Visitor, outsider: Visitor, run_db: RunDb, server: Server
) -> None:
    table_id = open_table(alice, players="3", seat1="friend", seat2="heuristic", public="yes")
    bob.submit(f"/cards/t/{table_id}", {}, action=f"/cards/t/{table_id}/join")
    trade_with_the_bot({0: alice, 1: bob}, run_db, table_id)
    watched = stream_messages(server, run_db, table_id, None)
    assert watched
    for html in watched:
        assert "My hand" not in html and "Private" not in html and "Your hand" not in html
    assert all(row.public for row in journal_rows(run_db, table_id, None))
    # Over HTTP the watcher reaches the page and the fragment, never a seat's prompt.
    body = outsider.get(f"/cards/t/{table_id}/body")
    assert body.status_code == 200 and "Take one action" not in body.text


def test_no_stream_for_someone_without_a_seat_at_a_private_table(
    alice: Visitor, outsider: Visitor, client: Visitor, run_db: RunDb
) -> None:
    table_id = open_table(alice, players="2", seat1="heuristic")
    for visitor in (outsider, client):
        assert visitor.get(f"/cards/t/{table_id}/events").status_code == 404
        assert visitor.get(f"/cards/t/{table_id}/body").status_code == 404


_AFTER = re.compile(r'/events\?after=(\d+)"')


def page_after(person: Visitor, table_id: str) -> int:
    """The cursor the table page opens its stream at."""
    found = _AFTER.search(person.get(f"/cards/t/{table_id}").text)
    assert found is not None
    return int(found.group(1))


def test_a_seat_s_cursor_counts_only_the_events_it_may_see(
    alice: Visitor, bob: Visitor, run_db: RunDb
) -> None:
    """A trade between the other person and the bot is theirs (C4): it must not move my page's
    numbers, or I could count the private trades of others (C12)."""
    table_id = open_table(alice, players="3", seat1="friend", seat2="heuristic")
    join_by_invite(bob, run_db, table_id)
    people = {0: alice, 1: bob}
    mover, other = trade_with_the_bot(people, run_db, table_id)
    everything = journal_rows(run_db, table_id, journal.EVERYONE)
    for seat in (mover, other):
        mine = journal_rows(run_db, table_id, seat)
        assert page_after(people[seat], table_id) == len(mine)
    assert len(journal_rows(run_db, table_id, other)) < len(everything)  # the trade is hidden


def test_a_huge_last_event_id_is_refused_not_a_dropped_stream(alice: Visitor) -> None:
    table_id = open_table(alice, players="2", seat1="heuristic")
    for headers, query in (
        ({"last-event-id": "99999999999999999999999"}, ""),
        ({}, "?after=99999999999999999999999"),
    ):
        answer = alice.get(f"/cards/t/{table_id}/events{query}", headers=headers)
        assert answer.status_code == 400, answer.text
