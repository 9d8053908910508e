"""Login throttling per username and per client address."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import Callable

import pytest
from litestar.stores.memory import MemoryStore
from litestar.stores.redis import RedisStore
from redis.asyncio import Redis

from deaddrop.server.accounts.throttle import LoginThrottle
from tests.server.conftest import in_ci
from tests.server.visitor import Visitor


def test_too_many_failures_block_even_the_right_password(
    alice: Visitor, new_visitor: Callable[[], Visitor]
) -> None:
    attacker = new_visitor()
    for _ in range(5):
        assert attacker.log_in("alice", "guessing wrong").status_code == 422
    page = attacker.log_in("alice", alice.password)
    assert page.status_code == 429
    assert "Too many failed attempts. Try again in 15 minutes." in page.text
    assert 0 < int(page.headers["retry-after"]) <= 15 * 60
    assert not attacker.is_logged_in()


def test_a_success_clears_the_username_counter(alice: Visitor) -> None:
    alice.log_out()
    for _ in range(4):
        alice.log_in(password="guessing wrong")
    alice.log_in()
    assert alice.is_logged_in()
    alice.log_out()
    for _ in range(4):
        assert alice.log_in(password="guessing wrong").status_code == 422
    assert alice.log_in().status_code == 200


def test_one_address_trying_many_usernames_is_blocked(
    alice: Visitor, new_visitor: Callable[[], Visitor]
) -> None:
    sprayer = new_visitor()
    for number in range(20):
        assert sprayer.log_in(f"user{number}", "guessing wrong").status_code == 422
    assert sprayer.log_in("alice", alice.password).status_code == 429


async def _exercise(throttle: LoginThrottle) -> None:
    for _ in range(2):
        assert await throttle.retry_after(username="eve", ip="10.0.0.1") is None
        await throttle.record_failure(username="eve", ip="10.0.0.1")
    wait = await throttle.retry_after(username="eve", ip="10.0.0.2")
    assert wait is not None and 0 < wait <= 1
    await asyncio.sleep(1.2)
    assert await throttle.retry_after(username="eve", ip="10.0.0.1") is None


async def test_the_window_ends_by_itself() -> None:
    store = MemoryStore()
    await _exercise(LoginThrottle(store=store, per_user=2, per_ip=10, window_seconds=1))


@pytest.mark.services  # needs Redis (tests/conftest.py)
async def test_throttle_works_on_redis() -> None:
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        if in_ci():
            pytest.fail("CI=true but TEST_REDIS_URL is not set")
        pytest.skip("Redis not configured: set TEST_REDIS_URL to run this test on it")
    redis = Redis.from_url(url)
    store = RedisStore(redis, namespace=f"deaddrop-test-{uuid.uuid4().hex[:8]}")
    try:
        await redis.ping()
    except Exception as error:
        await redis.aclose()
        message = f"Redis at TEST_REDIS_URL is unreachable ({error})"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    try:
        started = time.monotonic()
        await _exercise(LoginThrottle(store=store, per_user=2, per_ip=10, window_seconds=1))
        assert time.monotonic() - started < 5
    finally:
        await store.delete_all()
        await redis.aclose()
