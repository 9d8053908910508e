"""Request and response plumbing shared by the Station endpoints: one handler serves a form
(answered with a redirect and a flash) and JSON (answered with JSON) alike."""

from __future__ import annotations

from typing import Any

from litestar import MediaType, Request, Response
from litestar.exceptions import SerializationException
from litestar.plugins.flash import flash
from litestar.response import Redirect

from deaddrop.server.accounts.auth import safe_next
from deaddrop.server.errors import is_api
from deaddrop.server.numbers import BadNumber, optional_number
from deaddrop.server.render import see_other
from deaddrop.server.station.game.refusals import Refused

AnyRequest = Request[Any, Any, Any]
FIELD_MAX = 4000
"""No single field is longer (a Final Cable holds 2,000 characters, S32)."""
_TRUE = {"yes", "true", "on", "1"}


async def fields_of(request: AnyRequest) -> dict[str, str]:
    """The posted fields as strings, from a form or a JSON object."""
    if is_api(request) or request.content_type[0] == MediaType.JSON:
        try:
            data = await request.json()
        except SerializationException:  # not JSON; a body too large stays a 413
            raise Refused("Send the fields as a JSON object.") from None
        if not isinstance(data, dict):
            raise Refused("Send the fields as a JSON object.")
        raw = {str(key): _text(value) for key, value in data.items()}
    else:
        form = await request.form()
        raw = {key: value for key, value in form.items() if isinstance(value, str)}
    if any(len(value) > FIELD_MAX for value in raw.values()):
        raise Refused("A field is too long.")
    return raw


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return ""
    return str(value)


def flag(fields: dict[str, str], name: str) -> bool:
    """A yes/no field (a checkbox, `true` in JSON)."""
    return fields.get(name, "").strip().lower() in _TRUE


def version_of(fields: dict[str, str]) -> int | None:
    """The `version` the client's page was built from, if it sent one."""
    try:
        return optional_number(fields.get("version"), "version")
    except BadNumber:
        raise Refused("The form's version is malformed; reload the page.") from None


def back_to(request: AnyRequest, fields: dict[str, str], default: str) -> str:
    """Where a form goes after it is handled: its own `next` (a local path) or `default`."""
    wanted = fields.get("next")
    return safe_next(wanted) if wanted else default


def answer(request: AnyRequest, path: str, message: str, **data: Any) -> Response[Any] | Redirect:
    """Success: JSON for the API, else a flash and a redirect (POST-redirect-GET)."""
    if is_api(request):
        return Response(
            {"ok": True, "message": message, **data}, status_code=200, media_type=MediaType.JSON
        )
    flash(request, message, category="success")
    return see_other(path)


def refuse(request: AnyRequest, path: str, refusal: Refused) -> Response[Any] | Redirect:
    """A refusal in plain words: JSON with its status for the API, else a flash on the page."""
    if is_api(request):
        return Response(
            {
                "ok": False,
                "status_code": refusal.status_code,
                "detail": refusal.message,
                "rule": refusal.rule,
            },
            status_code=refusal.status_code,
            media_type=MediaType.JSON,
        )
    flash(request, refusal.message, category="error")
    return see_other(path)
