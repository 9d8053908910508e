"""The baseline of a durable write: a vote saved plainly on the bare app, straight through
sqlite3, beside which Dead Drop's vote POST is measured.

What a vote must do at the least, done plainly: read the session row its cookie names; then,
one writer at a time, read the game's row, write it back with the vote (its version moved on),
keep the vote in a table of its own, journal the event after the stream's last one, and commit
durably (WAL, `synchronous=FULL`: SQLite's default, and Dead Drop's) in a worker thread of its
own, as aiosqlite commits, so that the loop goes on while the disk syncs. No CSRF check, no
rules, no ORM, no middleware: what Dead Drop's vote costs beyond this is what its layers cost.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

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
        """Save the session's seat's vote for `target` in `room` durably; the event's seq."""
        found = self._connection.execute(
            "SELECT value FROM sessions WHERE key = ?", (session,)
        ).fetchone()
        if found is None:
            raise UnknownSession(session)
        seat = int(json.loads(found[0])["seat"])
        async with self._writer:
            run = self._connection.execute
            run("BEGIN IMMEDIATE")
            try:
                version, state = run(
                    "SELECT version, state FROM games WHERE id = ?", (room,)
                ).fetchone()
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
            except BaseException:
                run("ROLLBACK")
                raise
            await asyncio.get_running_loop().run_in_executor(self._committer, run, "COMMIT")
        return int(last) + 1


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
