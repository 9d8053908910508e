"""Station as JSON: a seat's view (its own secrets only), a spectator's, and the scenario file."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from litestar import MediaType, Response, Router, get
from litestar.exceptions import HTTPException
from litestar.params import FromPath

from deaddrop.engine.station.scenario import export_scenario
from deaddrop.engine.station.views import view
from deaddrop.server.accounts.auth import Me, Viewer
from deaddrop.server.db.dependencies import DB
from deaddrop.server.station.game.access import access_game_for_player, access_game_for_spectator
from deaddrop.server.station.game.store import load_state
from deaddrop.server.station.tabs.info_builder import build_game_info

JSON = dict[str, Any]


@get("/api/games/{game_id:str}", name="station_api_view")
async def game_view(db: DB, me: Me, game_id: FromPath[str]) -> JSON:
    """`view(state, my seat)` with the game's info: secrets of this seat only."""
    context = await access_game_for_player(db, game_id, me)
    state = await load_state(db, context.game)
    info = await build_game_info(db, context, state)
    return {"game": dataclasses.asdict(info), "view": view(state, context.seat)}


@get("/api/watch/{token:str}", name="station_api_spectate")
async def spectator_view(db: DB, viewer: Viewer, token: FromPath[str]) -> JSON:
    """What a spectator sees: public things only (the engine's view for no seat)."""
    context = await access_game_for_spectator(db, token, viewer)
    state = await load_state(db, context.game)
    info = await build_game_info(db, context, state)
    return {"game": dataclasses.asdict(info), "view": view(state, None)}


@get(
    ["/games/{game_id:str}/scenario.json", "/games/{game_id:str}/scenario"],
    name="station_scenario",
)
async def scenario_file(db: DB, me: Me, game_id: FromPath[str]) -> Response[bytes]:
    """The whole game as a scenario file (`deaddrop station adjudicate` reproduces it).

    It holds every role and Operation, so only the game's players get it, after the end (S26).
    """
    context = await access_game_for_player(db, game_id, me)
    state = await load_state(db, context.game)
    if not state.over:
        raise HTTPException(
            status_code=409, detail="The scenario file is available once the game is over."
        )
    removed = [d for d in state.deaths if "removed" in d.causes]
    name = context.game.title
    if removed:
        # The scenario format has no host removals (S40); say so rather than mislead.
        who = ", ".join(f"{state.seats[d.seat].codename} on day {d.day}" for d in removed)
        name += f" (the host removed {who}; the adjudicator cannot replay removals)"
    body = json.dumps(export_scenario(state, name), indent=2, ensure_ascii=False) + "\n"
    filename = f"station-{context.game.public_id}.json"
    return Response(
        body.encode("utf-8"),
        media_type=MediaType.JSON,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


router = Router(path="/", route_handlers=[game_view, spectator_view, scenario_file])
