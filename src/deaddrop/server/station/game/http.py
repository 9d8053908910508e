"""Request and response plumbing shared by the Station endpoints: one handler serves a form
(answered with a redirect and a flash) and JSON (answered with JSON) alike."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from litestar import MediaType, Response, post
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath
from litestar.plugins.flash import flash
from litestar.response import Redirect

from deaddrop.server.accounts.auth import Me, safe_next
from deaddrop.server.clock import Clock
from deaddrop.server.db.dependencies import DB
from deaddrop.server.db.prefetch import PREFETCH_KEY
from deaddrop.server.errors import is_api
from deaddrop.server.hosting import forms
from deaddrop.server.hosting.forms import AnyRequest, Fields, Reply, flag
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.quick_posts import PLAIN_KEY, QUICK_KEY, PlainPost
from deaddrop.server.render import see_other
from deaddrop.server.station.game.access import MEMBER_READ

__all__ = [
    "AnyRequest",
    "ClockDep",
    "Done",
    "Reply",
    "answer",
    "back_to",
    "fields_of",
    "flag",
    "game_post",
    "handle_form",
    "refuse",
    "version_of",
]
ClockDep = NamedDependency[Clock]
"""Annotation of a handler parameter `clock`: the app's clock (a manual one in tests)."""
Endpoint = Callable[[AnyRequest, DB, Me, Clock, str], Awaitable[Reply]]
"""What one of a game's POST endpoints does: (request, db, me, clock, game_id) → the reply."""
R = TypeVar("R")
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


@dataclass(frozen=True)
class Done:
    """What a form's work did: the message for the person, and data for scripts alone."""

    message: str
    data: dict[str, Any] = field(default_factory=dict)


async def handle_form(
    request: AnyRequest,
    default: str,
    work: Callable[[dict[str, str]], Awaitable[str | Done]],
    refused: Callable[[dict[str, str], Refused], Awaitable[R]] | None = None,
) -> Reply | R:
    """Read the posted fields and do `work` with them; answer its message, or the refusal in
    plain words, back at the form's own `next` or at `default` (`refused`, when given, answers
    a refusal instead, from the fields as posted)."""
    fields: dict[str, str] = {}
    try:
        fields = await fields_of(request)
        done = await work(fields)
    except Refused as refusal:
        if refused is not None:
            return await refused(fields, refusal)
        return refuse(request, back_to(request, fields, default), refusal)
    if isinstance(done, str):
        done = Done(done)
    return answer(request, back_to(request, fields, default), done.message, **done.data)


def game_paths(prefix: str, tail: str) -> list[str]:
    """A game's endpoint for forms and the same for scripts: `/games/{id}/<prefix><tail>` and
    `/api/games/{id}/<prefix><tail>`."""
    return [f"/games/{{game_id:str}}/{prefix}{tail}", f"/api/games/{{game_id:str}}/{prefix}{tail}"]


def game_post(
    path: str, name: str, endpoint: Endpoint, doc: str | None, plain: PlainPost | None = None
) -> HTTPRouteHandler:
    """The POST handler `name` at a game's `path` (`game_paths`), for a person logged in, doing
    `endpoint`; `plain`, when given, its plain way for a JSON post (server/quick_posts.py)."""

    async def handler(
        request: AnyRequest, db: DB, me: Me, clock: ClockDep, game_id: FromPath[str]
    ) -> Reply:
        return await endpoint(request, db, me, clock, game_id)

    handler.__doc__ = doc
    handler.__name__ = handler.__qualname__ = name
    # Its JSON posts go quick: its parameters are those a quick post gives (quick_posts.py).
    # Its game and seat are read with the session (db/prefetch.py).
    opt: dict[str, Any] = {QUICK_KEY: True, PREFETCH_KEY: MEMBER_READ}
    if plain is not None:
        opt[PLAIN_KEY] = plain
    return post(game_paths("", path), name=name, opt=opt)(handler)
