"""The Floor's public regions, pushed whole to every open Floor page: the live tally and every
vote (S21), who whispered to whom today (S31). Each is rendered once per batch from the
spectator's view (public things only, S28) and the same text goes to every seat and
spectator; a vote or a whisper's announcement changes nothing else on a bystander's page.
What is a seat's own (its ballot, "(yourself)") is never in a region: the voter's own pages
are re-rendered for them (pushes.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import partial
from typing import Any

from litestar.plugins.jinja import JinjaTemplateEngine

from deaddrop.engine.station.views import view
from deaddrop.server.live.fanout import Batch
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.station.game.store import load_state
from deaddrop.server.station.live.now import Reads, read_once
from deaddrop.server.station.tabs.floor_regions import REGIONS, floor_regions

REGIONS_OF: dict[str, tuple[str, ...]] = {
    "vote": ("tally", "votes"),
    "whisper_announced": ("announced",),
}
"""The journal kinds a region says all of on a Floor page (the reader's own vote aside), and
the regions each changes."""


@dataclass(frozen=True)
class PublicFloor:
    """The game's public side after a batch: its day, whether it is over, each seat's
    codename (S3: codenames are public) and the regions' values."""

    day: int
    over: bool
    codenames: tuple[str, ...]
    values: dict[str, Any]


async def public_floor(reads: Reads, game_id: int) -> PublicFloor | None:
    """The game's public side now, in one short session (None: gone, or not started)."""
    async with reads.session(shared=True) as db:
        game = await db.get(StationGame, game_id)
        if game is None or game.setup is None:
            return None
        state = await load_state(db, game)
    public = view(state, None)  # the spectator's view: what every reader of the Floor may see
    codenames = tuple(seat.codename for seat in state.seats)
    return PublicFloor(state.day, state.over, codenames, floor_regions(public))


async def public_floor_of(batch: Batch, reads: Reads, game_id: int) -> PublicFloor | None:
    """The game's public side after this batch, read once for every page of this process."""
    return await read_once(
        batch,
        ("station-public-floor", game_id),
        f"game {game_id} floor",
        lambda: public_floor(reads, game_id),
    )


async def region_of(
    batch: Batch, templates: JinjaTemplateEngine, floor: PublicFloor, game_id: int, name: str
) -> str:
    """A region's push (its name and HTML, markers included), rendered once per batch."""
    return await batch.once(
        ("floor-region", game_id, name), partial(_rendered, templates, floor, name)
    )


async def _rendered(templates: JinjaTemplateEngine, floor: PublicFloor, name: str) -> str:
    html = templates.get_template(REGIONS[name]).render(**floor.values)
    return json.dumps({"name": name, "html": region_part(html, name)}, ensure_ascii=False)


def region_part(html: str, name: str) -> str:
    """The region `name` of a rendered page or template, its markers included."""
    start = html.index(f"<!--region:{name}-->")
    end = f"<!--/region:{name}-->"
    return html[start : html.index(end, start) + len(end)]
