"""The baseline: a bare Litestar app under uvicorn with `deaddrop serve`'s settings.

`python -m deaddrop.benchmarks.http.bare_app --port 0` serves `GET /hello` (a JSON hello, the
issue's yardstick), `GET /page` (a small Jinja page of 30 posts: what a template adds),
`POST /save/{room}` (a vote saved durably, plainly: `bare_save.py`, in the SQLite file
`--database` names; `POST /save/{room}/shared` commits it with the votes waiting with it),
and live rooms: `GET /events/{room}` (Server-Sent Events) receives each `POST /post/{room}`.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from jinja2 import Environment
from litestar import Litestar, MediaType, Request, Response, get, post
from litestar.exceptions import NotAuthorizedException
from litestar.params import FromPath
from litestar.response import ServerSentEvent
from litestar.response.sse import ServerSentEventMessage

from deaddrop.benchmarks.http.bare_save import SESSION_COOKIE, BareSaves, UnknownSession

_PAGE = Environment(autoescape=True).from_string(
    "<!doctype html><html><head><title>{{ title }}</title></head><body><h1>{{ title }}</h1>"
    "<ol>{% for post in posts %}<li><b>{{ post.author }}</b> {{ post.text }}</li>{% endfor %}"
    "</ol></body></html>"
)
_POSTS = [{"author": f"AGENT{n}", "text": f"Floor post {n}: who was there?"} for n in range(30)]


@get("/hello", sync_to_thread=False)
def hello() -> dict[str, str]:
    """A JSON hello."""
    return {"hello": "world"}


@get("/page", sync_to_thread=False)
def page() -> Response[str]:
    """A small HTML page rendered from a template."""
    html = _PAGE.render(title="The Floor", posts=_POSTS)
    return Response(html, media_type=MediaType.HTML)


_rooms: dict[str, set[asyncio.Queue[str]]] = {}
"""The open streams of each room (one process: a plain dict is the whole broker)."""


@get("/events/{room:str}", sync_to_thread=False)
def events(room: FromPath[str]) -> ServerSentEvent:
    """A room's posts as they come, after a first comment (subscribed from there)."""
    queue: asyncio.Queue[str] = asyncio.Queue()

    async def stream() -> AsyncIterator[ServerSentEventMessage]:
        _rooms.setdefault(room, set()).add(queue)
        try:
            yield ServerSentEventMessage(comment="connected")
            number = 0
            while True:
                number += 1
                yield ServerSentEventMessage(data=await queue.get(), id=number)
        finally:
            _rooms[room].discard(queue)

    return ServerSentEvent(stream())


@post("/post/{room:str}", status_code=200)
async def post_to_room(room: FromPath[str], request: Request[Any, Any, Any]) -> dict[str, bool]:
    """Send field `text` to every open stream of the room."""
    text = str((await request.json())["text"])
    for queue in _rooms.get(room, ()):
        queue.put_nowait(f"<li>{text}</li>")
    return {"ok": True}


@post("/save/{room:int}", status_code=200)
async def save(room: FromPath[int], request: Request[Any, Any, Any]) -> dict[str, int]:
    """Save field `vote` as the vote of the session's seat in the room, durably."""
    return await _saved(request, request.app.state.saves.vote, room)


@post("/save/{room:int}/shared", status_code=200)
async def save_shared(room: FromPath[int], request: Request[Any, Any, Any]) -> dict[str, int]:
    """The same, its commit shared with the votes waiting with it (group commit)."""
    return await _saved(request, request.app.state.saves.vote_shared, room)


async def _saved(
    request: Request[Any, Any, Any], vote: Callable[[int, str, str], Awaitable[int]], room: int
) -> dict[str, int]:
    target = str((await request.json())["vote"])
    try:
        seq = await vote(room, request.cookies.get(SESSION_COOKIE, ""), target)
    except UnknownSession:
        raise NotAuthorizedException("no such session") from None
    return {"seq": seq}


def create_bare_app(database: Path) -> Litestar:
    """The bare app, its durable saves in the SQLite file `database` (made if new)."""

    def open_saves(app: Litestar) -> None:
        app.state.saves = BareSaves.open(database)

    def close_saves(app: Litestar) -> None:
        app.state.saves.close()

    return Litestar(
        route_handlers=[hello, page, save, save_shared, events, post_to_room],
        openapi_config=None,
        on_startup=[open_saves],
        on_shutdown=[close_saves],
    )


def main() -> None:
    """Serve the bare app as `deaddrop serve` serves its own (commands/serve.py)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--database", type=Path, help="the saves' SQLite file (a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        _serve(args, args.database or Path(folder) / "bare_save.sqlite3")


def _serve(args: argparse.Namespace, database: Path) -> None:
    import uvicorn

    from deaddrop.commands.serve import GRACE_SECONDS

    config = uvicorn.Config(
        create_bare_app(database),
        host=args.host,
        port=args.port,
        proxy_headers=False,
        forwarded_allow_ips=None,
        log_level="info",
        timeout_graceful_shutdown=GRACE_SECONDS,
    )
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()
