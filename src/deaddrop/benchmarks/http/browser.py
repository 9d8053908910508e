"""An in-process browser on the real app: one person's cookies, their forms and scripts' posts.

The seeding drives the app the way players do (forms, the page script's JSON posts), in this
process, without a socket. Only the log-in is a shortcut: `bench_log_in` (registered on the
seeding app alone, never on a served one) calls the app's own `log_in`, so each session is the
row a real log-in writes, without an argon2 check per player.
"""

from __future__ import annotations

import logging
from typing import Any

import httpx
from litestar import Litestar, get
from litestar.exceptions import NotFoundException
from litestar.params import FromPath
from litestar.testing import AsyncTestClient

from deaddrop.server.accounts.auth import log_in
from deaddrop.server.accounts.service import find_user
from deaddrop.server.cookies import CSRF_COOKIE, SESSION_COOKIE
from deaddrop.server.db.dependencies import DB
from deaddrop.server.station.game.http import AnyRequest


@get("/_bench/log-in/{username:str}", name="bench_log_in")
async def bench_log_in(request: AnyRequest, db: DB, username: FromPath[str]) -> dict[str, bool]:
    """Log this browser in as `username` (seeding only)."""
    user = await find_user(db, username)
    if user is None:
        raise NotFoundException("No such seeded user.")
    log_in(request, user)
    return {"ok": True}


def seeding_app(app: Litestar) -> Litestar:
    """`app` with the seeding log-in added."""
    app.register(bench_log_in)
    return app


class SeedFailed(RuntimeError):
    """The app refused a step of the seeding."""


class Browser:
    """One person on the in-process app: their cookies, sent with every request."""

    def __init__(self, client: AsyncTestClient[Litestar]) -> None:
        logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request
        self.client = client
        self.cookies: dict[str, str] = {}

    @property
    def session(self) -> str:
        """The session cookie's value."""
        return self.cookies[SESSION_COOKIE]

    @property
    def csrf(self) -> str:
        """The CSRF cookie's value, which is also the token forms send."""
        return self.cookies[CSRF_COOKIE]

    async def log_in(self, username: str) -> None:
        """Log in as `username`."""
        await self.send("GET", f"/_bench/log-in/{username}", expect=200)

    async def get(self, path: str) -> httpx.Response:
        """GET a page."""
        return await self.send("GET", path, expect=200)

    async def form(self, path: str, fields: dict[str, str]) -> httpx.Response:
        """POST a form as a page without script does; expects its redirect."""
        data = {**fields, "_csrf_token": self.csrf}
        return await self.send("POST", path, data=data, expect=303)

    async def script(self, path: str, fields: dict[str, str]) -> httpx.Response:
        """POST JSON to `/api…` as the page's script does."""
        headers = {"x-csrftoken": self.csrf, "accept": "application/json"}
        return await self.send("POST", path, json=fields, headers=headers, expect=200)

    async def send(
        self,
        method: str,
        path: str,
        *,
        expect: int,
        headers: dict[str, str] | None = None,
        **kw: Any,
    ) -> httpx.Response:
        """One request with this person's cookies; their cookies follow the response's."""
        self.client.cookies.clear()  # the client's own jar is shared by every person
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        headers = {**(headers or {}), **({"cookie": cookie} if cookie else {})}
        response = await self.client.request(
            method, path, headers=headers, follow_redirects=False, **kw
        )
        self.cookies.update(response.cookies.items())
        if response.status_code != expect:
            raise SeedFailed(f"{method} {path}: {response.status_code} {response.text[:300]}")
        return response
