"""A quick post's plain JSON answer (server/quick_posts.py `plain_answer`) is the very messages
Litestar's own `to_response` sends for the same reply: status, headers and body, byte for byte;
any other reply is left to `to_response`."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from litestar import Litestar, MediaType, Response, post
from litestar.datastructures import Cookie
from litestar.response import Redirect

from deaddrop.server.quick_posts import plain_answer

JSON = MediaType.JSON
PLAIN = [
    Response(
        {"ok": True, "message": "Vote saved.", "version": 3}, status_code=200, media_type=JSON
    ),
    Response({"ok": False, "rule": "S3"}, status_code=422, media_type=JSON),
    Response(
        {"text": "Grüße, 1961 — «ok» \u2713", "seats": [1, None]}, status_code=201, media_type=JSON
    ),
    Response([], status_code=200, media_type=JSON),
    Response("already JSON", status_code=409, media_type=JSON),
    Response({}, status_code=429, media_type="application/json"),
]
NOT_PLAIN = [
    Response({"ok": True}, media_type=JSON, headers={"retry-after": "3"}),
    Response({"ok": True}, media_type=JSON, cookies=[Cookie(key="a", value="b")]),
    Response({"ok": True}, status_code=204, media_type=JSON),
    Response({"ok": True}, status_code=200),  # its media type is the handler's to say
    Response({"ok": True}, media_type=JSON),  # its status too
    Response("<p>page</p>", media_type=MediaType.HTML),
    Redirect("/games/abc/floor"),
    {"ok": True},
    None,
]


def _sent_by_litestar(reply: Response[Any]) -> list[dict[str, Any]]:
    """The messages a bare Litestar app sends for a handler returning `reply`."""

    @post("/answer", status_code=200)
    async def answer() -> Response[Any]:
        return reply

    app = Litestar([answer], openapi_config=None)
    sent: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/answer",
        "raw_path": b"/answer",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-length", b"0")],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
        "state": {},
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    return sent


@pytest.mark.parametrize("reply", PLAIN, ids=range(len(PLAIN)))
def test_a_plain_answer_is_what_litestar_sends(reply: Response[Any]) -> None:
    plain = plain_answer(reply)
    assert plain is not None
    assert list(plain) == _sent_by_litestar(reply)


@pytest.mark.parametrize("reply", NOT_PLAIN, ids=range(len(NOT_PLAIN)))
def test_any_other_reply_goes_through_to_response(reply: object) -> None:
    assert plain_answer(reply) is None
