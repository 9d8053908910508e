"""The bot runner plays bot seats through a person's own path, once per fingerprint (issue 14)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from litestar import Litestar
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.cards.runtime import Runtime
from deaddrop.server.jobs import standard_jobs
from deaddrop.server.mail.settings import MailSettings
from deaddrop.server.station.bot_seats import decisions as claims
from deaddrop.server.station.bot_seats.runner import LAST_CALL, BotTiming
from deaddrop.server.station.bot_seats.seat_input import fingerprint, seat_input
from deaddrop.server.station.game.store import load_state
from tests.server.station.games.bot_helpers import (
    bot_runner,
    bot_table,
    decisions,
    lock_the_first_carry_out,
    run_bots,
    run_two_bot_runners,
    saves_today,
)
from tests.server.station.games.helpers import Person, RunDB, Table, game_row

LEVELS = ["heuristic", "expert", "random", "heuristic"]
BOT_SEATS = range(2, 6)


def _table(host: Person, players: list[Person], run_db: RunDB, app: Litestar) -> Table:
    return bot_table(host, players[:1], LEVELS, run_db, app)


def test_bots_save_through_the_players_path_and_the_pouch_resolves_with_them(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = _table(host, players, run_db, app)
    assert run_bots(table) == len(BOT_SEATS)
    saved_by = {action["seat"] for action in saves_today(table) if "seat" in action}
    assert saved_by and saved_by <= set(BOT_SEATS)  # the bots saved; no person did
    made = decisions(table)
    assert sorted(d.seat for d in made) == list(BOT_SEATS)  # each bot decided, once
    assert all(d.done_at is not None for d in made)
    state = table.state()
    floor = host.get(table.path("/floor")).text  # public votes, as a person's would show
    voters = [table.codenames[seat] for seat in BOT_SEATS if state.votes[seat] is not None]
    assert all(codename in floor for codename in voters)
    assert table.pouch() == 1
    state = table.state()
    assert state.day == 2 or state.over
    assert len(state.history) == 1


def test_a_decision_is_made_once_per_fingerprint_and_a_new_vote_makes_another(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = bot_table(host, players[:4], ["heuristic"], run_db, app)
    assert run_bots(table) == 1
    assert run_bots(table) == 0  # its own saves are no news to it: nothing to decide again
    assert len(decisions(table)) == 1
    other = table.codenames[5]
    assert host.form(table.path("/vote"), {"vote": other}).status_code == 303
    assert run_bots(table) == 1  # a vote is public news: the bot looks again, once
    assert run_bots(table) == 0
    assert len({d.fingerprint for d in decisions(table)}) == 2


def test_a_bot_decides_at_most_once_per_interval_then_once_before_the_pouch(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = bot_table(host, players[:4], ["heuristic"], run_db, app)
    runner = bot_runner(table, BotTiming())  # the defaults: every 3 minutes at most
    assert run_bots(table, runner) == 1
    assert host.form(table.path("/vote"), {"vote": table.codenames[5]}).status_code == 303
    assert run_bots(table, runner) == 0  # news, but too soon
    table.clock.advance(BotTiming().min_interval)
    assert run_bots(table, runner) == 1
    table.clock.set(table.deadline() - timedelta(minutes=1))
    assert run_bots(table, runner) == 1  # the last call of the day
    assert run_bots(table, runner) == 0
    assert decisions(table)[-1].fingerprint == LAST_CALL


def test_two_runners_at_once_decide_each_thing_once(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = _table(host, players, run_db, app)
    made = run_two_bot_runners(table)
    keys = [(d.day, d.seat, d.fingerprint) for d in decisions(table)]
    assert len(keys) == len(set(keys)) == sum(made)
    assert {seat for _, seat, _ in keys} == set(BOT_SEATS)


def test_a_claimed_decision_whose_runner_died_is_taken_over_after_the_timeout(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    table = bot_table(host, players[:4], ["expert"], run_db, app)
    seat = 5
    now = table.clock.now()

    async def crash(db: AsyncSession) -> int | None:
        game = await game_row(db, table.game_id)
        given = await seat_input(db, game.id, await load_state(db, game), seat)
        key = (game.id, game.day, seat, fingerprint(given))
        return await claims.claim(db, key, "crashed", now, timedelta(minutes=2))

    assert run_db(crash) is not None  # claimed, never done: its runner died
    assert run_bots(table) == 0  # another runner holds it, and recently
    assert not any(a.get("seat") == seat for a in saves_today(table))
    table.clock.advance(timedelta(minutes=3))
    assert run_bots(table) == 1
    assert any(a.get("seat") == seat for a in saves_today(table))
    (taken,) = decisions(table)  # the same decision, taken over, not a second one
    assert taken.runner == "test" and taken.done_at is not None


@pytest.fixture
def failing_bot(
    host: Person,
    players: list[Person],
    run_db: RunDB,
    app: Litestar,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Table, list[Exception]]:
    """A game of five people and a heuristic bot whose next decision fails once; the failure
    still to come."""
    table = bot_table(host, players[:4], ["heuristic"], run_db, app)
    return table, lock_the_first_carry_out(monkeypatch)


def test_a_decision_that_fails_is_given_back_and_decided_at_the_next_pass(
    failing_bot: tuple[Table, list[Exception]],
) -> None:
    table, failures = failing_bot
    runner = bot_runner(table, BotTiming())  # the defaults: a claim is kept 2 minutes
    assert run_bots(table, runner) == 0  # it failed (logged), and saved nothing
    assert not failures and decisions(table) == [] and saves_today(table) == []
    assert run_bots(table, runner) == 1  # at once, not after the claim's timeout
    (done,) = decisions(table)
    assert done.done_at is not None and saves_today(table)


def test_a_failed_decision_that_cannot_be_given_back_waits_for_its_timeout(
    failing_bot: tuple[Table, list[Exception]], monkeypatch: pytest.MonkeyPatch
) -> None:
    table, failures = failing_bot

    async def broken(*_args: object) -> None:
        raise OSError("the database is gone")

    monkeypatch.setattr(claims, "release", broken)
    assert run_bots(table) == 0 and not failures  # the decision's own error, logged
    (kept,) = decisions(table)  # the claim stays, to be taken over after its timeout
    assert kept.done_at is None and saves_today(table) == []


def test_the_bot_runner_is_a_standard_job_of_serve_and_worker(app: Litestar) -> None:
    jobs = standard_jobs(app.state.sessionmaker, app.state.clock, MailSettings(), Runtime())
    assert "bot_runner" in [job.name for job in jobs]
