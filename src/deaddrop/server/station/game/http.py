"""Request and response plumbing shared by the Station endpoints: one handler serves a form
(answered with a redirect and a flash) and JSON (answered with JSON) alike."""

from __future__ import annotations

from typing import Any

from litestar import MediaType, Response
from litestar.plugins.flash import flash
from litestar.response import Redirect

from deaddrop.server.accounts.auth import safe_next
from deaddrop.server.errors import is_api
from deaddrop.server.hosting import forms
from deaddrop.server.hosting.forms import AnyRequest, Fields, Reply, flag
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.render import see_other

__all__ = ["AnyRequest", "answer", "back_to", "fields_of", "flag", "refuse", "version_of"]
FIELD_MAX = 4000
"""No single field is longer (a Final Cable holds 2,000 characters, S32)."""


async def fields_of(request: AnyRequest) -> dict[str, str]:
    """The posted fields as strings, from a form or a JSON object."""
    as_json = is_api(request) or request.content_type[0] == MediaType.JSON
    return await forms.fields_of(request, limit=FIELD_MAX, json=as_json)


def version_of(fields: Fields) -> int | None:
    """The `version` the client's page was built from, if it sent one."""
    return forms.version_of(fields, "The form's version is malformed; reload the page.")


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


def refuse(request: AnyRequest, path: str, refusal: Refused) -> Reply:
    """A refusal in plain words: JSON with its status for the API, else a flash on the page."""
    return forms.refuse(request, path, refusal, as_json=is_api(request), status_in_body=True)
