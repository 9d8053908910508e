"""A practice game's quick clock: bots done at once, the Pouch leaves at the person's done mark
(S41), the next day opens at once and wakes the bots (issue 14)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from litestar import Litestar
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.live.wakeup import WAKEUPS_KEY, Wakeups
from deaddrop.server.station.bot_seats.bot_due import BOT_RUNNER
from deaddrop.server.station.bot_seats.runner import BotTiming
from tests.server.station.games.bot_helpers import bot_runner, decisions, run_bots
from tests.server.station.games.helpers import Person, RunDB
from tests.server.station.games.practice_helpers import mark_done, practise


def test_s41_random_bots_in_practice_are_done_once_they_have_decided(
    host: Person, run_db: RunDB, app: Litestar
) -> None:
    table = practise(host, run_db, app, players=10, level="random")
    assert run_bots(table) == 9
    state = table.state()
    assert all(state.done[seat] for seat in range(1, 10))  # the random level alone: now and then
    assert not state.done[0]  # the person is never marked by anyone else
    assert table.run() == 0  # nobody's deadline: the Pouch waits for the person


def test_s41_the_pouch_leaves_when_the_person_marks_done(
    host: Person, run_db: RunDB, app: Litestar
) -> None:
    table = practise(host, run_db, app)
    assert run_bots(table) == 5
    mark_done(table)
    assert table.deadline() <= table.clock.now()  # S41: due now, no time passed
    assert table.run() == 1
    state = table.state()
    assert len(state.history) == 1 and (state.day == 2 or state.over)


def test_s41_a_person_done_first_is_followed_by_the_last_bot(
    host: Person, run_db: RunDB, app: Litestar
) -> None:
    table = practise(host, run_db, app, level="expert")
    mark_done(table)
    assert table.run() == 0  # the bots have not decided yet
    assert run_bots(table) == 5
    assert table.run() == 1  # the last bot's done mark sent it


def test_the_next_day_opens_at_once_and_the_bots_decide_in_it_at_once(
    host: Person, run_db: RunDB, app: Litestar
) -> None:
    woken: list[str] = []
    wakeups: Wakeups = app.state[WAKEUPS_KEY]
    wakeups.on_due(BOT_RUNNER, lambda: woken.append(BOT_RUNNER))
    table = practise(host, run_db, app, players=8)
    assert woken == [BOT_RUNNER]  # the start woke the bot runner: Day 1 is open
    runner = bot_runner(table, BotTiming())  # the default throttle of three minutes
    assert run_bots(table, runner) == 7
    mark_done(table)
    assert table.run() == 1
    state = table.state()
    if state.over:
        return  # a Day 1 that ended the game has no next day to open
    assert woken == [BOT_RUNNER, BOT_RUNNER]  # the Pouch woke it: Day 2 is open
    assert state.day == 2 and table.game().deadline is not None
    living_bots = sum(1 for seat in range(1, 8) if state.alive[seat])
    assert run_bots(table, runner) == living_bots  # at once, though no minute passed
    assert {d.day for d in decisions(table)} == {1, 2}


def test_a_short_day_leaves_by_itself(host: Person, run_db: RunDB, app: Litestar) -> None:
    table = practise(host, run_db, app, day="2")
    assert run_bots(table) == 5
    assert table.pouch() == 1  # two minutes on, nobody done: the deadline sends it
    game = table.game()
    if game.status != "over":
        assert game.deadline is not None
        assert (game.deadline - table.clock.now()).total_seconds() <= 120


def test_a_running_bot_runner_is_woken_through_wakeups(
    host: Person, run_db: RunDB, app: Litestar
) -> None:
    table = practise(host, run_db, app)
    runner = bot_runner(table)
    passes: list[float] = []

    async def one_pass() -> float:
        passes.append(table.clock.now().timestamp())
        return 3600.0  # far beyond the test: only a wake-up brings the next pass

    async def woken(db: AsyncSession) -> int:
        runner.one_pass = one_pass  # type: ignore[method-assign]
        task = asyncio.create_task(runner.run_forever())
        await _until(lambda: len(passes) == 1)
        app.state[WAKEUPS_KEY].due(BOT_RUNNER)  # what a Pouch's commit does
        await _until(lambda: len(passes) == 2)
        runner.stop()
        await task
        return len(passes)

    assert run_db(woken) == 2


async def _until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait (in the app's loop) until `condition` holds; fail after `seconds`."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("it did not happen in time")
