"""`is_api` tells the JSON API from pages by the path `request.url` gives (its root path too),
without making the whole URL (server/errors.py)."""

from __future__ import annotations

from typing import Any

from litestar import Request

from deaddrop.server.errors import is_api


def _request(path: str, root_path: str = "") -> Request[Any, Any, Any]:
    scope: Any = {
        "type": "http",
        "method": "POST",
        "path": path,
        "root_path": root_path,
        "query_string": b"",
        "headers": [(b"host", b"example.org")],
        "server": ("example.org", 80),
        "scheme": "http",
    }
    return Request(scope)


def test_the_api_is_told_from_pages_by_the_urls_path() -> None:
    cases = [("/api", ""), ("/api/games/x/vote", ""), ("/apis", ""), ("/games/x", "")]
    cases += [("/api/games/x/vote", "/mounted"), ("/games/x", "/api")]
    for path, root in cases:
        request = _request(path, root)
        url_path = request.url.path
        expected = url_path == "/api" or url_path.startswith("/api/")
        assert is_api(_request(path, root)) == expected, (path, root)
    assert is_api(_request("/api/games/x/vote")) and not is_api(_request("/apis"))
