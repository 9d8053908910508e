"""What changed on an open Station page, as small pushes made once per audience: a new Floor
message appended to the Floor panel (the same `<li>` a fresh load renders, made once per time
zone), the Floor's public regions after a vote or a whisper's announcement (the tally, every
vote, who whispered to whom: made once for every reader, regions.py), a badge count on the
tab bar, or only the reader's new cursor. None where a fragment would not say all that
changed (the reader's own vote, a whisper on an open Dossier, the Pouch, a death, the game's
end): the page's live part is then re-rendered for its reader (routes.py)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
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
from deaddrop.server.station.live.regions import (
    REGIONS_OF,
    PublicFloor,
    public_floor_of,
    region_of,
)
from deaddrop.server.station.tabs.badges import CHAT_TABS, Reader, tabs_showing

WHISPER = "whisper"
"""A whisper's text (S31), journaled for its two parties only: news on their Dossier."""


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


@dataclass
class _Changes:
    """What a batch changes on one page, gathered row by row."""

    appended: list[ServerSentEventMessage] = field(default_factory=list)
    regions: dict[str, None] = field(default_factory=dict)
    """The Floor regions to push, in order (a dict as an ordered set)."""
    badges: Counter[str] = field(default_factory=Counter)


async def pushes(
    batch: Batch, page: Page, rows: Sequence[LiveEvent]
) -> list[ServerSentEventMessage] | None:
    """The page's pushes for rows it may see, or None to re-render its live part."""
    context = page.context
    floor = None
    if any(row.kind in REGIONS_OF or row.kind == WHISPER for row in rows):
        floor = await public_floor_of(batch, page.reads, context.game.id)
        if floor is None or floor.over:
            return None
    reader = _reader(context, floor)
    changes = _Changes()
    for row in rows:
        if row.kind == "message":
            fits = await _message(batch, page, row, reader, changes)
        else:
            fits = _public_act(page, row, reader, floor, changes)
        if not fits:
            return None
    out = list(changes.appended)
    if floor is not None:
        for name in changes.regions:
            data = await region_of(batch, page.templates, floor, context.game.id, name)
            out.append(ServerSentEventMessage(data=data, event="region"))
    if out and context.user is not None and context.seat is not None:
        page.looks.here().add(context.game.id, context.user.id, page.tab, rows[-1].seq)
    for tab, count in sorted(changes.badges.items()):
        out.append(
            ServerSentEventMessage(data=json.dumps({"tab": tab, "add": count}), event="badge")
        )
    return out or [nothing()]


def _reader(context: GameContext, floor: PublicFloor | None) -> Reader | None:
    """Who counts the badges (None: a spectator has none); the codename tells one's own
    votes and whispers, known once the batch brings any."""
    if context.seat is None:
        return None
    return Reader(context.seat, floor.codenames[context.seat] if floor is not None else "")


async def _message(
    batch: Batch, page: Page, row: LiveEvent, reader: Reader | None, changes: _Changes
) -> bool:
    """A chat message: a badge on another tab, or appended to the open Floor panel."""
    if CHAT_TABS.get(str(row.payload.get("channel"))) != page.tab:
        # A message shows on its channel's tab only; elsewhere it is a badge (seen.py).
        changes.badges.update(tabs_showing(row.kind, row.payload, reader) if reader else ())
        return True
    if not is_floor_post(row):
        return False
    context = page.context
    post = await floor_post_of(batch, page.reads, context.game.id, int(row.payload["id"]))
    if post is None or not post.fits:
        return False
    data = await batch.once(("floor-li", row.seq, page.zone), partial(_li, page, post))
    changes.appended.append(ServerSentEventMessage(data=data, event="append"))
    return True


def _public_act(
    page: Page, row: LiveEvent, reader: Reader | None, floor: PublicFloor | None, changes: _Changes
) -> bool:
    """A vote (S21), a whisper's announcement or its text (S31): a region of the open Floor,
    else a badge; False where only a fresh render says it all."""
    if floor is None or (row.kind not in REGIONS_OF and row.kind != WHISPER):
        return False
    if row.kind == WHISPER:
        if page.tab == "dossier":  # the whisper's text joins the reader's list
            return False
    elif row.payload.get("day") != floor.day:
        return False  # the game has moved on to another day since: re-rendered afresh
    elif page.tab == "floor":
        if row.kind == "vote" and reader is not None and row.payload["voter"] == reader.codename:
            return False  # S21: the reader's own ballot changed, which no region holds
        changes.regions.update(dict.fromkeys(REGIONS_OF[row.kind]))
        return True
    changes.badges.update(tabs_showing(row.kind, row.payload, reader) if reader else ())
    return True


async def _li(page: Page, post: FloorPost) -> str:
    """A Floor message as the panel lists it, in the page's zone."""
    values = message_json(post.state, post.message, page.zone)
    html: Markup = page.templates.get_template("station/chat/message.html").module.message(values)  # type: ignore[attr-defined]
    data = {"panel": "chat-floor", "html": str(html), "older": post.older}
    return json.dumps(data, ensure_ascii=False)
