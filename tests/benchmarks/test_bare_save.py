"""The bare app's durable save (the baseline of Dead Drop's vote POST): what it stores, that it
stays stored, and what the bench sends it."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from deaddrop.benchmarks.http.bare_app import create_bare_app
from deaddrop.benchmarks.http.bare_save import (
    ROOMS,
    SEATS,
    BareSaves,
    remove_database,
    session_key,
)
from deaddrop.benchmarks.http.requests import RequestMaker
from deaddrop.benchmarks.http.wire import Address


def _stored(path: Path) -> tuple[list[tuple[int, int, str]], list[tuple[str, int]], int]:
    """The votes, the journal's (stream, seq) and room 0's version, read by another connection."""
    with sqlite3.connect(path) as other:
        votes = other.execute("SELECT game, seat, target FROM votes ORDER BY game, seat")
        journal = other.execute("SELECT stream, seq FROM journal ORDER BY stream, seq")
        version = other.execute("SELECT version FROM games WHERE id = 0").fetchone()[0]
        return list(votes), list(journal), int(version)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """Where the test's saves are kept."""
    return tmp_path / "saves.sqlite3"


@pytest.fixture
def saves(path: Path) -> Iterator[BareSaves]:
    """The baseline's database at `path`, closed after the test."""
    opened = BareSaves.open(path)
    try:
        yield opened
    finally:
        opened.close()


async def test_a_save_keeps_the_seats_last_vote_and_journals_each_after_the_last(
    path: Path, saves: BareSaves
) -> None:
    seqs = [
        await saves.vote(0, session_key(0, 3), "AGENT4"),
        await saves.vote(0, session_key(0, 3), "AGENT5"),
        await saves.vote(1, session_key(1, 0), "AGENT1"),
    ]
    # Many at once: one writer at a time, none lost, numbered without a gap.
    many = [saves.vote(0, session_key(0, seat), "AGENT0") for seat in range(SEATS)]
    seqs += await asyncio.gather(*many)
    assert seqs[:3] == [1, 2, 1] and sorted(seqs[3:]) == list(range(3, 3 + SEATS))
    votes, journal, version = _stored(path)
    assert votes[0] == (0, 0, "AGENT0") and (0, 3, "AGENT0") in votes and (1, 0, "AGENT1") in votes
    assert len(votes) == SEATS + 1
    assert journal.count(("game:1", 1)) == 1 and len(journal) == 3 + SEATS
    assert version == 1 + 2 + SEATS  # the game row written by each of its saves


async def test_an_unknown_session_saves_nothing(path: Path, saves: BareSaves) -> None:
    with pytest.raises(LookupError):
        await saves.vote(0, "forged", "AGENT1")
    await saves.vote(0, session_key(0, 1), "AGENT2")  # the writer was not left locked
    assert _stored(path)[0] == [(0, 1, "AGENT2")]


async def test_shared_commits_save_every_waiting_vote_once_and_refuse_a_bad_one_alone(
    path: Path, saves: BareSaves
) -> None:
    first = [saves.vote_shared(0, session_key(0, seat), "AGENT1") for seat in range(SEATS)]
    # A vote for a room that does not exist fails in its savepoint: the others stand.
    outcomes = await asyncio.gather(
        *first,
        saves.vote_shared(ROOMS + 1, session_key(0, 0), "AGENT2"),
        return_exceptions=True,
    )
    later = await saves.vote_shared(1, session_key(1, 2), "AGENT3")
    alone = await saves.vote(1, session_key(1, 3), "AGENT4")  # the writer was given back
    assert sorted(seq for seq in outcomes[:SEATS] if isinstance(seq, int)) == [*range(1, SEATS + 1)]
    assert isinstance(outcomes[SEATS], TypeError)  # no game row to read
    assert (later, alone) == (1, 2)
    votes, journal, version = _stored(path)
    assert len(votes) == SEATS + 2 and len(journal) == SEATS + 2
    assert version == 1 + SEATS


def test_the_bare_app_saves_what_the_bench_sends_and_a_new_run_starts_anew(
    tmp_path: Path, path: Path
) -> None:
    maker = RequestMaker([Address("127.0.0.1", 1)])
    sent = [maker.make("save", number) for number in (0, ROOMS, ROOMS * SEATS)]
    shared = maker.make("shared", 1)
    with TestClient(app=create_bare_app(path)) as client:
        for raw in sent:
            head, body = raw.split(b"\r\n\r\n", 1)
            lines = head.decode().split("\r\n")
            path_of = lines[0].split(" ")[1]
            cookie = next(line for line in lines if line.startswith("Cookie: "))
            name, _, value = cookie.removeprefix("Cookie: ").partition("=")
            client.cookies.set(name, value)
            json_type = {"content-type": "application/json"}
            answer = client.post(path_of, content=body, headers=json_type)
            assert answer.status_code == 200, answer.text
        client.cookies.set("session", session_key(1, 0))
        body = shared.split(b"\r\n\r\n", 1)[1]
        assert shared.startswith(b"POST /save/1/shared ")
        answer = client.post("/save/1/shared", content=body, headers=json_type)
        assert answer.status_code == 200 and answer.json() == {"seq": 1}
        client.cookies.clear()
        refused = client.post("/save/0", json={"vote": "AGENT1"})
        assert refused.status_code == 401
    votes, journal, _version = _stored(path)
    # Room 0's first seat, then its second seat, then its first seat again with its vote
    # changed: each request a real write.
    first, _second, again = (json.loads(raw.split(b"\r\n\r\n", 1)[1])["vote"] for raw in sent)
    assert [seq for stream, seq in journal if stream == "game:0"] == [1, 2, 3]
    assert (0, 0, again) in votes and again != first
    remove_database(path)
    assert not list(tmp_path.iterdir())
