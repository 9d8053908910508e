"""What changed on an open Station page, as small pushes made once per audience: a new Floor
message appended to the Floor panel (the same `<li>` a fresh load renders, made once per time
zone), a badge count on the tab bar, or only the reader's new cursor. None where a fragment
would not say all that changed (a vote, the Pouch, a death, the game's end): the page's live
part is then re-rendered for its reader (routes.py)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response.sse import ServerSentEventMessage
from markupsafe import Markup

from deaddrop.server.live.fanout import Batch
from deaddrop.server.live.models import LiveEvent
from deaddrop.server.station.chat.view import message_json
from deaddrop.server.station.game.access import GameContext
from deaddrop.server.station.live.looks import LookWriters
from deaddrop.server.station.live.now import FloorPost, Reads, floor_post_of, is_floor_post
from deaddrop.server.station.tabs.badges import CHAT_TABS, Reader, tabs_showing


def nothing() -> ServerSentEventMessage:
    """Sent when the rows change nothing on this page: its cursor still moves on."""
    return ServerSentEventMessage(data="-", event="cursor")


@dataclass(frozen=True)
class Page:
    """One open page: its reader, its tab, the zone its times are shown in."""

    context: GameContext
    tab: str
    zone: str
    templates: JinjaTemplateEngine
    reads: Reads
    looks: LookWriters


async def pushes(
    batch: Batch, page: Page, rows: Sequence[LiveEvent]
) -> list[ServerSentEventMessage] | None:
    """The page's pushes for rows it may see, or None to re-render its live part."""
    context = page.context
    reader = None if context.seat is None else Reader(context.seat, codename="")
    added: list[ServerSentEventMessage] = []
    badges: Counter[str] = Counter()
    for row in rows:
        if row.kind != "message":
            return None
        if CHAT_TABS.get(str(row.payload.get("channel"))) != page.tab:
            # A message shows on its channel's tab only; elsewhere it is a badge (seen.py).
            badges.update(tabs_showing(row.kind, row.payload, reader) if reader else ())
            continue
        if not is_floor_post(row):
            return None
        post = await floor_post_of(batch, page.reads, context.game.id, int(row.payload["id"]))
        if post is None or not post.fits:
            return None
        data = await batch.once(("floor-li", row.seq, page.zone), partial(_li, page, post))
        added.append(ServerSentEventMessage(data=data, event="append"))
    if added and context.user is not None and context.seat is not None:
        page.looks.here().add(context.game.id, context.user.id, page.tab, rows[-1].seq)
    for tab, count in sorted(badges.items()):
        added.append(
            ServerSentEventMessage(data=json.dumps({"tab": tab, "add": count}), event="badge")
        )
    return added or [nothing()]


async def _li(page: Page, post: FloorPost) -> str:
    """A Floor message as the panel lists it, in the page's zone."""
    values = message_json(post.state, post.message, page.zone)
    html: Markup = page.templates.get_template("station/chat/message.html").module.message(values)  # type: ignore[attr-defined]
    data = {"panel": "chat-floor", "html": str(html), "older": post.older}
    return json.dumps(data, ensure_ascii=False)
