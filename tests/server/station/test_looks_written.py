"""The looks writer (station/live/looks.py) still counts a look it has written for a while: a
page that read the database just before the write committed and asks the writer just after
must find it in one or the other (issue 15: known pages compare the looks they read)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from deaddrop.server.station.live import looks as looks_module
from deaddrop.server.station.live.looks import KEEP_WRITTEN_SECONDS, Look, Looks, LookWriters


class _Turns:
    @asynccontextmanager
    async def reading(self, shared: bool = False) -> AsyncIterator[None]:
        yield


@asynccontextmanager
async def _session() -> AsyncIterator[None]:
    yield None


def _writer(monkeypatch: pytest.MonkeyPatch, written: list[dict[Look, int]]) -> Looks:
    async def upsert(_db: Any, looks: dict[Look, int]) -> None:
        written.append(dict(looks))

    monkeypatch.setattr(looks_module, "_upsert", upsert)
    monkeypatch.setattr(looks_module, "GATHER_SECONDS", 0)
    return Looks(_session, _Turns())  # type: ignore[arg-type]


def test_a_written_look_still_counts_here_for_a_while(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[dict[Look, int]] = []
    clock = [1000.0]

    async def run() -> None:
        looks = _writer(monkeypatch, written)
        looks.clock = lambda: clock[0]
        looks.generation_began = clock[0]
        looks.add(7, 3, "floor", 12)
        assert looks.seen_by(7, 3) == {"floor": 12}  # waiting
        assert looks.writing is not None
        await looks.writing
        assert written == [{(7, 3, "floor"): 12}]
        assert looks.seen_by(7, 3) == {"floor": 12}  # written, still counted here
        assert looks.seen_by(7, 4) == {} and looks.seen_by(8, 3) == {}  # one player's own
        clock[0] += KEEP_WRITTEN_SECONDS  # a new generation begins at the next write
        looks.add(7, 4, "cable", 2)
        await looks.writing
        assert looks.seen_by(7, 3) == {"floor": 12}  # the generation before: still counted
        clock[0] += KEEP_WRITTEN_SECONDS
        looks.add(7, 4, "cable", 3)
        await looks.writing
        assert looks.seen_by(7, 3) == {}  # two generations on: the database alone has it
        assert looks.seen_by(7, 4) == {"cable": 3}

    asyncio.run(run())


def test_a_look_waiting_and_written_counts_its_furthest(monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[dict[Look, int]] = []

    async def run() -> None:
        looks = _writer(monkeypatch, written)
        looks.add(7, 3, "floor", 12)
        assert looks.writing is not None
        await looks.writing
        looks.add(7, 3, "floor", 9)  # an older page's look, on its way
        assert looks.seen_by(7, 3) == {"floor": 12}
        await looks.writing

    asyncio.run(run())


def test_the_looks_waiting_are_written_before_the_writer_is_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the app's shutdown waits for (`LookWriters.all_written`): every look recorded so far
    stored, the writer's task over, even when the one waiting is cancelled meanwhile."""
    written: list[dict[Look, int]] = []

    async def run() -> None:
        writers = LookWriters(_session, _Turns())  # type: ignore[arg-type]
        looks = writers.here()
        monkeypatch.setattr(looks_module, "_upsert", _slow_upsert(written))
        looks.add(7, 3, "floor", 12)
        impatient = asyncio.ensure_future(writers.all_written())
        await asyncio.sleep(0)
        impatient.cancel()  # the writer goes on
        looks.add(7, 3, "cable", 4)
        await writers.all_written()
        assert looks.writing is not None and looks.writing.done()
        assert {key: seq for batch in written for key, seq in batch.items()} == {
            (7, 3, "floor"): 12,
            (7, 3, "cable"): 4,
        }

    asyncio.run(run())


def _slow_upsert(written: list[dict[Look, int]]) -> Any:
    async def upsert(_db: Any, looks: dict[Look, int]) -> None:
        await asyncio.sleep(0.01)
        written.append(dict(looks))

    return upsert
