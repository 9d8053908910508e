"""Clocks for tests, never wired in production: a manual clock, and an offset clock.

`ManualClock` only moves when a test tells it to. `OffsetClock` is the machine's time plus an
offset read from a file: browser tests run a real `deaddrop serve` in another process and cannot
hand it a `ManualClock`; instead they set `DEADDROP_TEST_CLOCK_FILE` and write a number of
seconds into that file to move the server's time forward ("advance the clock past the Pouch").
The file is re-read whenever it changes, and `watch` wakes the background jobs at once after a
jump, so a test does not wait for the next poll. Never set the variable in production.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path


class ManualClock:
    """A clock that only moves when told to: for tests of deadlines and the Pouch runner."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("a ManualClock starts at an aware time")
        self._now = start.astimezone(UTC)
        self._lock = threading.Lock()

    def now(self) -> datetime:
        """The time it was last set to."""
        with self._lock:
            return self._now

    def set(self, moment: datetime) -> None:
        """Jump to `moment` (aware)."""
        with self._lock:
            self._now = moment.astimezone(UTC)

    def advance(self, delta: timedelta) -> datetime:
        """Move forward by `delta`; returns the new time."""
        with self._lock:
            self._now += delta
            return self._now


CLOCK_FILE_VARIABLE = "DEADDROP_TEST_CLOCK_FILE"
"""The environment variable that turns the offset clock on in `deaddrop serve`."""
WATCH_SECONDS = 0.2
"""How often `watch` looks at the file."""

_Stamp = tuple[int, int, int] | None


class OffsetClock:
    """System time plus the offset (seconds, a decimal number) in `path`; none if it is missing."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._stamp: _Stamp = None
        self._offset = 0.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> OffsetClock | None:
        """The clock named by `DEADDROP_TEST_CLOCK_FILE`, or None when it is not set."""
        env = os.environ if env is None else env
        path = env.get(CLOCK_FILE_VARIABLE)
        return cls(Path(path)) if path else None

    def offset(self) -> float:
        """The offset in seconds, re-read if the file changed since the last look."""
        stamp = self._stat()
        with self._lock:
            if stamp != self._stamp:
                self._offset = self._read() if stamp is not None else 0.0
                self._stamp = stamp
            return self._offset

    def now(self) -> datetime:
        """The current time, aware, in UTC, moved on by the offset."""
        return datetime.now(UTC) + timedelta(seconds=self.offset())

    def set_offset(self, seconds: float) -> None:
        """Write a new offset (what a test does from outside the server)."""
        write_offset(self.path, seconds)

    async def watch(self, on_jump: Callable[[], None]) -> None:
        """Call `on_jump` whenever the offset changes; runs until cancelled."""
        last = self.offset()
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            current = self.offset()
            if current != last:
                last = current
                on_jump()

    def _stat(self) -> _Stamp:
        try:
            info = self.path.stat()
        except FileNotFoundError:
            return None
        return (info.st_ino, info.st_mtime_ns, info.st_size)

    def _read(self) -> float:
        try:
            text = self.path.read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            return 0.0
        try:
            return float(text) if text else 0.0
        except ValueError:
            # Half-written or garbage: keep the last good offset rather than jump back.
            return self._offset


def write_offset(path: Path, seconds: float) -> None:
    """Replace the offset in `path` atomically, so a reader never sees half a number."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(f"{seconds}\n", encoding="utf-8")
    os.replace(partial, path)
