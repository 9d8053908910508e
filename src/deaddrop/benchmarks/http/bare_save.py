"""The baseline of a durable write: a vote saved plainly on the bare app, straight through
sqlite3, beside which Dead Drop's vote POST is measured.

What a vote must do at the least, done plainly: read the session row its cookie names; then,
one writer at a time, read the game's row, write it back with the vote (its version moved on),
keep the vote in a table of its own, journal the event after the stream's last one, and commit
durably (WAL, `synchronous=FULL`: SQLite's default, and Dead Drop's) in a worker thread of its
own, as aiosqlite commits, so that the loop goes on while the disk syncs. No CSRF check, no
rules, no ORM, no middleware: what Dead Drop's vote costs beyond this is what its layers cost.

`vote` commits each save in a transaction of its own. `vote_shared` is the other way a plain
server can go, and the way Dead Drop goes on SQLite (server/db/shared_commits.py): the votes
that arrive while a commit runs wait, then go in one transaction (each in a savepoint) with one
commit and one sync of the disk (a group commit), each answered once it is durable.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

ROOMS = 200
"""The games of the baseline (issue 15's world has 200)."""
SEATS = 10
SESSION_COOKIE = "session"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, version INTEGER NOT NULL,
    state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS votes (game INTEGER NOT NULL, seat INTEGER NOT NULL,
    target TEXT NOT NULL, PRIMARY KEY (game, seat));
CREATE TABLE IF NOT EXISTS journal (stream TEXT NOT NULL, seq INTEGER NOT NULL,
    payload TEXT NOT NULL, PRIMARY KEY (stream, seq));
"""


def session_key(room: int, seat: int) -> str:
    """The session cookie of a room's seat (seeded by `BareSaves.open`)."""
    return f"s{room}-{seat}"


def remove_database(path: Path) -> None:
    """Remove the database at `path` and its WAL files, so that the next run starts anew."""
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


class UnknownSession(LookupError):
    """The cookie names no session."""


class BareSaves:
    """The baseline's database: one connection, one writer at a time, commits in a thread."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._writer = asyncio.Lock()
        self._committer = ThreadPoolExecutor(1, thread_name_prefix="bare-save-commit")
        self._waiting: list[_Waiting] = []
        """Votes waiting for the next shared commit (`vote_shared`)."""
        self._sharing: asyncio.Future[None] | None = None

    @classmethod
    def open(cls, path: Path) -> BareSaves:
        """The database at `path`, its tables made and seeded (ROOMS games of SEATS) if new."""
        connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.executescript(_SCHEMA)
        if connection.execute("SELECT count(*) FROM games").fetchone()[0] == 0:
            _seed(connection)
        return cls(connection)

    def close(self) -> None:
        """Let the commit thread finish and close the connection."""
        self._committer.shutdown()
        self._connection.close()

    async def vote(self, room: int, session: str, target: str) -> int:
        """Save the session's seat's vote for `target` in `room` durably, in a transaction of
        its own; the event's seq."""
        seat = self._seat_of(session)
        async with self._writer:
            run = self._connection.execute
            run("BEGIN IMMEDIATE")
            try:
                seq = self._apply(room, seat, target)
            except BaseException:
                run("ROLLBACK")
                raise
            await asyncio.get_running_loop().run_in_executor(self._committer, run, "COMMIT")
        return seq

    async def vote_shared(self, room: int, session: str, target: str) -> int:
        """`vote`, but in a transaction shared with the votes waiting with it (group commit:
        one commit, one sync of the disk, for all of them); the event's seq once committed."""
        seat = self._seat_of(session)
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Waiting(room, seat, target, done))
        if self._sharing is None or self._sharing.done():
            self._sharing = asyncio.ensure_future(self._commit_waiting())
        return await done

    def _seat_of(self, session: str) -> int:
        found = self._connection.execute(
            "SELECT value FROM sessions WHERE key = ?", (session,)
        ).fetchone()
        if found is None:
            raise UnknownSession(session)
        return int(json.loads(found[0])["seat"])

    def _apply(self, room: int, seat: int, target: str) -> int:
        """The vote's writes in the open transaction; the event's seq."""
        run = self._connection.execute
        version, state = run("SELECT version, state FROM games WHERE id = ?", (room,)).fetchone()
        votes = json.loads(state)
        votes[str(seat)] = target
        run(
            "UPDATE games SET version = ?, state = ? WHERE id = ? AND version = ?",
            (version + 1, json.dumps(votes), room, version),
        )
        run("INSERT OR REPLACE INTO votes VALUES (?, ?, ?)", (room, seat, target))
        stream = f"game:{room}"
        (last,) = run(
            "SELECT coalesce(max(seq), 0) FROM journal WHERE stream = ?", (stream,)
        ).fetchone()
        payload = json.dumps({"kind": "vote", "seat": seat, "target": target})
        run("INSERT INTO journal VALUES (?, ?, ?)", (stream, last + 1, payload))
        return int(last) + 1

    async def _commit_waiting(self) -> None:
        """While votes wait: all those waiting in one transaction, each in a savepoint (one
        that fails is refused alone), one commit; then each is answered."""
        run = self._connection.execute
        async with self._writer:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                run("BEGIN IMMEDIATE")
                applied: list[tuple[_Waiting, int]] = []
                for waiting in batch:
                    run("SAVEPOINT vote")
                    try:
                        applied.append((waiting, self._apply(*waiting[:3])))
                    except Exception as error:
                        run("ROLLBACK TO vote")
                        waiting.done.set_exception(error)
                    run("RELEASE vote")
                try:
                    await asyncio.get_running_loop().run_in_executor(self._committer, run, "COMMIT")
                except Exception as error:
                    if self._connection.in_transaction:
                        run("ROLLBACK")
                    for waiting, _seq in applied:
                        waiting.done.set_exception(error)
                    continue
                for waiting, seq in applied:
                    waiting.done.set_result(seq)


class _Waiting(NamedTuple):
    """A vote waiting for the shared commit, and where its answer goes."""

    room: int
    seat: int
    target: str
    done: asyncio.Future[int]


def _seed(connection: sqlite3.Connection) -> None:
    """ROOMS games with no votes, and a session for each of their SEATS."""
    connection.execute("BEGIN")
    connection.executemany(
        "INSERT INTO games VALUES (?, 1, '{}')", [(room,) for room in range(ROOMS)]
    )
    connection.executemany(
        "INSERT INTO sessions VALUES (?, ?)",
        [
            (session_key(room, seat), json.dumps({"seat": seat}).encode())
            for room in range(ROOMS)
            for seat in range(SEATS)
        ],
    )
    connection.execute("COMMIT")
