"""A person in a browser, for tests: GETs a page, fills its form (with its CSRF token), posts."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import httpx
from litestar.testing import TestClient

PASSWORD = "correct horse battery"
_CSRF_FIELD = re.compile(r'name="_csrf_token" value="([^"]+)"')


def csrf_token_in(html: str) -> str:
    """The CSRF token of the first form on a page."""
    found = _CSRF_FIELD.search(html)
    if found is None:
        raise AssertionError("the page has no form with a CSRF token")
    return found.group(1)


@dataclass
class Visitor:
    """One browser (its own cookie jar) on the app under test."""

    http: TestClient[Any]
    username: str = ""
    password: str = PASSWORD

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        """GET a page, following redirects."""
        return self.http.get(path, **kwargs)

    def submit(
        self,
        page: str,
        fields: dict[str, str],
        *,
        action: str | None = None,
        follow_redirects: bool = True,
    ) -> httpx.Response:
        """Open `page`, then post `fields` to `action` (default: the page) with its CSRF token."""
        form_page = self.http.get(page)
        token = csrf_token_in(form_page.text)
        return self.http.post(
            action or page,
            data={**fields, "_csrf_token": token},
            follow_redirects=follow_redirects,
        )

    def sign_up(
        self, username: str, display_name: str | None = None, password: str = PASSWORD
    ) -> httpx.Response:
        """Sign up through the form; on success this visitor is logged in as `username`."""
        self.username, self.password = username, password
        return self.submit(
            "/signup",
            {
                "username": username,
                "display_name": display_name or username.capitalize(),
                "password": password,
                "password_again": password,
            },
        )

    def log_in(self, username: str | None = None, password: str | None = None) -> httpx.Response:
        """Log in through the form."""
        return self.submit(
            "/login",
            {"username": username or self.username, "password": password or self.password},
        )

    def log_out(self) -> httpx.Response:
        """Log out with the button in the page header."""
        return self.submit("/", {}, action="/logout")

    def is_logged_in(self) -> bool:
        """Whether the home page greets this visitor as logged in."""
        return "My games" in self.get("/").text
