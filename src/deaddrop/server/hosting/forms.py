"""The plumbing of a game's endpoints: posted fields (a form, or JSON where the game takes it),
yes/no and version fields, and a refusal answered as JSON or as a flash on the page."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from litestar import MediaType, Request, Response
from litestar.exceptions import SerializationException
from litestar.plugins.flash import flash
from litestar.response import Redirect

from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.numbers import BadNumber, optional_number
from deaddrop.server.render import see_other

AnyRequest = Request[Any, Any, Any]
Reply = Response[Any] | Redirect
Fields = Mapping[str, str]
_TRUE = {"yes", "true", "on", "1"}


async def fields_of(request: AnyRequest, *, limit: int, json: bool = False) -> dict[str, str]:
    """The posted fields as strings, from a form or (when `json`) a JSON object; none longer
    than `limit`."""
    if json:
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
    if any(len(value) > limit for value in raw.values()):
        raise Refused("A field is too long.")
    return raw


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return ""
    return str(value)


def flag(fields: Fields, name: str) -> bool:
    """A yes/no field (a checkbox, `true` in JSON)."""
    return fields.get(name, "").strip().lower() in _TRUE


def version_of(fields: Fields, malformed: str) -> int | None:
    """The `version` the client's page was built from, if it sent one; `malformed` refuses a
    version that is not a number."""
    try:
        return optional_number(fields.get("version"), "version")
    except BadNumber:
        raise Refused(malformed) from None


def refuse(
    request: AnyRequest, path: str, refusal: Refused, *, as_json: bool, status_in_body: bool
) -> Reply:
    """A refusal in plain words: JSON with its status (`as_json`), else a flash on the page."""
    if as_json:
        body: dict[str, Any] = {"ok": False, "detail": refusal.message, "rule": refusal.rule}
        if status_in_body:
            body = {"ok": False, "status_code": refusal.status_code, **body}
        return Response(body, status_code=refusal.status_code, media_type=MediaType.JSON)
    flash(request, refusal.message, category="error")
    return see_other(path)
