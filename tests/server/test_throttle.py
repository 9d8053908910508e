"""Login throttling per username and per client address."""

from __future__ import annotations

import asyncio
import secrets
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.stores.memory import MemoryStore
from litestar.stores.redis import RedisStore
from litestar.testing import TestClient
from redis.asyncio import Redis

from deaddrop.server.accounts import passwords, service
from deaddrop.server.accounts.throttle import LoginThrottle
from deaddrop.server.app import create_app
from tests.server.conftest import Database
from tests.server.visitor import Visitor, csrf_token_in

ATTEMPTS = 24


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


async def test_simultaneous_claims_let_only_the_limit_through() -> None:
    throttle = LoginThrottle(store=MemoryStore(), per_user=5, per_ip=20, window_seconds=60)
    claims = [throttle.claim(username="eve", ip="10.0.0.1") for _ in range(ATTEMPTS)]
    answers = await asyncio.gather(*claims)
    assert answers.count(None) == 5
    assert all(0 < wait <= 60 for wait in answers if wait is not None)
    # Only the five that were checked count against the address.
    assert await throttle.store.get("ip:10.0.0.1") == b"5"


async def test_throttle_works_on_redis(redis_url: str) -> None:
    redis = Redis.from_url(redis_url)
    store = RedisStore(redis, namespace=f"deaddrop-test-{uuid.uuid4().hex[:8]}")
    try:
        started = time.monotonic()
        await _exercise(LoginThrottle(store=store, per_user=2, per_ip=10, window_seconds=1))
        assert time.monotonic() - started < 5
    finally:
        await store.delete_all()
        await redis.aclose()


def _count_password_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every password the log-in checks from now on, in a list that grows as it does."""
    checked: list[str] = []
    real = passwords.verify_password

    async def counting(password_hash: str | None, password: str) -> bool:
        checked.append(password)
        return await real(password_hash, password)

    monkeypatch.setattr(service, "verify_password", counting)
    return checked


def _wrong_passwords_at_once(server: TestClient[Litestar], guest: Visitor, username: str) -> Any:
    """POST `ATTEMPTS` wrong passwords for `username` all at once, from one fresh address;
    returns the status codes and the address."""
    token = csrf_token_in(guest.get("/login").text)
    cookies = dict(guest.http.cookies)
    # An address of its own, so that no other test's counter (a shared Redis) comes into it.
    ip = "127." + ".".join(str(secrets.randbelow(250) + 1) for _ in range(3))

    async def burst() -> list[int]:
        transport = httpx.ASGITransport(app=server.app, client=(ip, 40000))
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver.local", cookies=cookies
        ) as browser:
            tries = [
                browser.post(
                    "/login",
                    data={"username": username, "password": f"guess {n}", "_csrf_token": token},
                )
                for n in range(ATTEMPTS)
            ]
            return [answer.status_code for answer in await asyncio.gather(*tries)]

    return server.blocking_portal.call(burst), ip


def test_simultaneous_wrong_passwords_get_only_five_checks(
    server: TestClient[Litestar],
    alice: Visitor,
    new_visitor: Callable[[], Visitor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    checked = _count_password_checks(monkeypatch)
    statuses, _ = _wrong_passwords_at_once(server, new_visitor(), "alice")
    assert len(checked) == 5
    assert sorted(statuses) == [422] * 5 + [429] * (ATTEMPTS - 5)
    # The window holds: even the right password waits now.
    assert new_visitor().log_in("alice", alice.password).status_code == 429


def test_simultaneous_wrong_passwords_get_only_five_checks_on_redis(
    database: Database, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(database.settings(redis_url=redis_url))
    username = f"target{uuid.uuid4().hex[:12]}"
    with TestClient(app) as server:
        guest = TestClient(app)
        guest.blocking_portal = server.blocking_portal
        checked = _count_password_checks(monkeypatch)
        statuses, ip = _wrong_passwords_at_once(server, Visitor(guest), username)
        store = app.stores.get("login-throttle")
        assert isinstance(store, RedisStore)
        try:
            assert len(checked) == 5
            assert sorted(statuses) == [422] * 5 + [429] * (ATTEMPTS - 5)
        finally:
            for key in (f"user:{username}", f"ip:{ip}"):
                server.blocking_portal.call(store.delete, key)
