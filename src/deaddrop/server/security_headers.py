"""Security headers on every response: pages, errors (404, 405, 413, 500), redirects, static
files and live streams alike.

Litestar's middleware wraps only the handlers a request matched, so an unknown address (404)
or a wrong method (405) never passes through it. A `before_send` hook runs on every message
the application sends, matched or not; that is where the headers are added.
"""

from __future__ import annotations

from typing import Any, cast

from litestar.types import Message, Scope

# No inline script or style anywhere, so the policy can be strict.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


_ENCODED = tuple(
    (name.lower().encode("latin-1"), value.encode()) for name, value in HEADERS.items()
)
"""`HEADERS` as ASGI sends them, encoded once: this runs on every response."""


async def add_security_headers(message: Message, scope: Scope) -> None:
    """`before_send` hook: add `HEADERS` to the start of every HTTP response (a header the
    response already has is left as it is)."""
    if message["type"] != "http.response.start":
        return
    start = cast(dict[str, Any], message)
    headers = list(start.get("headers") or ())
    present = {name.lower() for name, _ in headers}
    headers.extend(header for header in _ENCODED if header[0] not in present)
    start["headers"] = headers
