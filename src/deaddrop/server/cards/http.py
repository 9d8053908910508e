"""Request plumbing of the Cards pages: posted fields, answers for forms and for fetch."""

from __future__ import annotations

from litestar import MediaType, Response
from litestar.plugins.flash import flash

from deaddrop.server.cards.identity import Who, guest_cookie, new_guest_key
from deaddrop.server.cards.runtime import Runtime
from deaddrop.server.hosting import forms
from deaddrop.server.hosting.forms import AnyRequest, Reply
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.render import see_other

FIELD_MAX = 200


def runtime(request: AnyRequest) -> Runtime:
    """The app's Cards runtime."""
    rt: Runtime = request.app.state.cards
    return rt


def wants_json(request: AnyRequest) -> bool:
    """Whether the page's script sent this (it asks for JSON) rather than a plain form."""
    return "application/json" in request.headers.get("accept", "")


async def fields_of(request: AnyRequest) -> dict[str, str]:
    """The posted form fields as strings."""
    return await forms.fields_of(request, limit=FIELD_MAX)


def seated(request: AnyRequest, who: Who) -> tuple[Who, str | None]:
    """This person, given a fresh guest key if they are a guest without one (to keep a seat)."""
    if who.known:
        return who, None
    key = new_guest_key()
    return Who(None, key), key


def done(request: AnyRequest, path: str, message: str = "", new_key: str | None = None) -> Reply:
    """Success: JSON for the script, else a redirect (with the guest's new cookie if any)."""
    if wants_json(request):
        response: Reply = Response(
            {"ok": True, "next": path}, status_code=200, media_type=MediaType.JSON
        )
    else:
        if message:
            flash(request, message, category="success")
        response = see_other(path)
    if new_key is not None:
        secure = request.app.state.settings.secure_cookies
        response.cookies.append(guest_cookie(new_key, secure))
    return response


def refuse(request: AnyRequest, path: str, refusal: Refused) -> Reply:
    """A refusal in plain words: JSON with its status for the script, else a flash and back."""
    return forms.refuse(request, path, refusal, as_json=wants_json(request), status_in_body=False)
