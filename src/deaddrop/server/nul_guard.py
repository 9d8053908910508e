"""Refuse, before any handler runs, a request whose text holds a NUL character (U+0000).

PostgreSQL can neither store nor compare a string holding NUL (its driver fails: a 500), and
no file name holds one; no page or script of ours ever sends it. So the address, the query,
the cookies and the body of a form or JSON request are checked once, here, with a 400.
"""

from __future__ import annotations

import re
from typing import Any

from litestar import Request
from litestar.enums import RequestEncodingType, ScopeType
from litestar.types import ASGIApp, Receive, Scope, Send

from deaddrop.server.errors import BadInput

NUL = "\x00"
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# A JSON string escape \u0000 is NUL only when its backslash is not itself escaped: an odd
# run of backslashes before the "u" ("\\u0000" is the six characters \u0000, not NUL).
_JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
ADDRESS_MESSAGE = "The address holds a NUL character (U+0000), which no page here has."
TEXT_MESSAGE = (
    "The text you sent holds a character that cannot be stored (NUL, U+0000). "
    "Remove it and send it again."
)


class NulRefused(BadInput):
    """A request holding NUL somewhere; the detail says where."""


def refuse_nul(app: ASGIApp) -> ASGIApp:
    """ASGI middleware factory: a request holding NUL is refused (400) before `app` sees it."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == ScopeType.HTTP:
            await check_request(Request(scope, receive))
        await app(scope, receive, send)

    return middleware


async def check_request(request: Request[Any, Any, Any]) -> None:
    """Raise NulRefused when the request's address, cookies or body hold NUL."""
    scope = request.scope
    # The query string is still percent-encoded: NUL is "%00" there (a typed "%" is "%25").
    if NUL in scope["path"] or b"\x00" in scope["query_string"] or b"%00" in scope["query_string"]:
        raise NulRefused(ADDRESS_MESSAGE)
    if any(NUL in value for value in request.cookies.values()):
        raise NulRefused(ADDRESS_MESSAGE)
    if scope["method"] in _BODY_METHODS and body_holds_nul(
        request.content_type[0], await request.body()
    ):
        raise NulRefused(TEXT_MESSAGE)


def body_holds_nul(content_type: str, body: bytes) -> bool:
    """Whether a body of this type decodes to text holding NUL (read as is, never parsed)."""
    if b"\x00" in body:
        return True
    if content_type == RequestEncodingType.URL_ENCODED:
        return b"%00" in body
    # JSON, and whatever else a script sends and the API reads as JSON.
    return _JSON_NUL.search(body) is not None
