"""On a machine without PostgreSQL, Redis or chromium, the tests that need one skip cleanly
(README: `make test` skips what the machine lacks), and the `services` marker selects exactly
them (tests/conftest.py), which `.ci/run` uses to prove it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NO_SERVICES = {"TEST_CHROMIUM": "none"}
"""With CI, TEST_REDIS_URL and TEST_DATABASE_URL removed: a user's machine."""


def _pytest(*args: str) -> subprocess.CompletedProcess[str]:
    """Run pytest on this project as a user without the services would."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CI", "TEST_REDIS_URL", "TEST_DATABASE_URL")
    }
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", *args],
        cwd=ROOT,
        env={**env, **NO_SERVICES},
        capture_output=True,
        text=True,
        check=False,
    )


def test_without_services_the_tests_that_need_them_skip_and_error_nowhere() -> None:
    # The worker's test once skipped inside its test client's portal and broke the teardown.
    worker = "tests/server/station/games/test_worker_wakes_pages.py"
    done = _pytest("-q", "-rs", worker, "tests/e2e/test_accounts_in_a_browser.py")
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout.splitlines()[-1]
    assert "error" not in summary and "4 skipped" in summary, done.stdout
    assert "browser tests need Debian's chromium at none" in done.stdout
    assert "Redis not configured" in done.stdout


FILES = (
    "tests/server/test_throttle.py",
    "tests/server/live/test_live_redis.py",
    "tests/server/station/games/test_worker_wakes_pages.py",
    "tests/e2e/test_accounts_in_a_browser.py",
)


def test_the_services_marker_selects_what_needs_postgresql_redis_or_chromium() -> None:
    done = _pytest("--collect-only", "-q", "-m", "services", *FILES)
    assert done.returncode == 0, done.stdout + done.stderr
    selected = {line for line in done.stdout.splitlines() if "::" in line}
    throttle = "tests/server/test_throttle.py::"
    redis = "tests/server/live/test_live_redis.py::"
    worker = "tests/server/station/games/test_worker_wakes_pages.py::"
    browser = "tests/e2e/test_accounts_in_a_browser.py::"
    assert selected == {
        # PostgreSQL: the `postgresql` half of every test on the databases.
        throttle + "test_too_many_failures_block_even_the_right_password[postgresql]",
        throttle + "test_a_success_clears_the_username_counter[postgresql]",
        throttle + "test_one_address_trying_many_usernames_is_blocked[postgresql]",
        throttle + "test_simultaneous_wrong_passwords_get_only_five_checks[postgresql]",
        # Redis: the `redis_url` fixture.
        throttle + "test_throttle_works_on_redis",
        throttle + "test_simultaneous_wrong_passwords_get_only_five_checks_on_redis[sqlite]",
        throttle + "test_simultaneous_wrong_passwords_get_only_five_checks_on_redis[postgresql]",
        redis + "test_wake_ups_cross_redis_without_content",
        *(
            redis + f"{name}[{backend}]"
            for name in (
                "test_a_listener_gets_only_its_audience_over_redis",
                "test_reconnect_over_redis_gets_exactly_what_was_missed",
                "test_two_processes_each_deliver_what_the_other_published",
                "test_a_page_whose_redis_subscription_is_cut_still_gets_every_event",
            )
            for backend in ("sqlite", "postgresql")
        ),
        # Redis unreachable on purpose: only its PostgreSQL half needs a service.
        redis + "test_a_page_opened_while_redis_is_away_gets_its_events_and_nothing_breaks"
        "[postgresql]",
        worker + "test_a_pouch_resolved_by_a_worker_reaches_an_open_page_of_a_server[sqlite]",
        worker + "test_a_pouch_resolved_by_a_worker_reaches_an_open_page_of_a_server[postgresql]",
        # chromium: every browser test.
        browser + "test_sign_up_log_out_and_back_in",
        browser + "test_how_to_play_reads_well_on_a_phone",
    }
