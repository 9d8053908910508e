"""The "Make a claim" endpoints (S43): a claim on the Floor or in the Ring Channel, or whispered.

The form's fields become the engine's canonical sentence (`claim_form.compose_claim`), which
then goes exactly where free text goes: `do_post` for a channel, the engine's `SendWhisper`
for a whisper (S31: one of the day's two, announced like any). A refused claim comes back to a
browser without JavaScript as a page holding the reason and the form as it was sent.
"""

from __future__ import annotations

from typing import Any

from litestar import post
from litestar.params import FromPath
from litestar.response import Template

from deaddrop.engine.station import SendWhisper, State
from deaddrop.engine.station.channels import Channel
from deaddrop.engine.station.views import view
from deaddrop.phrasebook.station_claims import CLAIM_CHANNELS
from deaddrop.server.accounts.auth import Me
from deaddrop.server.db.dependencies import DB
from deaddrop.server.errors import is_api
from deaddrop.server.hosting.refusals import Refused
from deaddrop.server.render import page
from deaddrop.server.station.chat.channels import TITLES, can_post
from deaddrop.server.station.chat.claim_form import (
    KINDS,
    claim_choices,
    compose_claim,
    refuse_claim,
)
from deaddrop.server.station.chat.posting import channel_post, flash_refusal
from deaddrop.server.station.game.access import GameContext, access_game_for_player
from deaddrop.server.station.game.http import (
    AnyRequest,
    ClockDep,
    Done,
    Reply,
    game_paths,
    handle_form,
    version_of,
)
from deaddrop.server.station.game.store import load_state, names_state
from deaddrop.server.station.game.writes import table_epoch
from deaddrop.server.station.play.routes import Posted
from deaddrop.server.station.play.service import do_act
from deaddrop.server.station.tabs.info_builder import build_game_info
from deaddrop.server.station.tabs.routes import NO_STORE

POSTED = tuple(channel for channel in CLAIM_CHANNELS if channel != "whisper")
"""The channels a claim is posted to (a whispered claim is a whisper, S31)."""


def _claim_text(fields: dict[str, str], channel: str) -> str:
    """Post the claim the fields describe (field `kind` and its fields) to the Floor or the
    Ring Channel (S43), through the same checks as any post there (S28, S29)."""
    if channel not in POSTED:
        raise refuse_claim("claims are made on the Floor, in the Ring Channel or in a whisper")
    return compose_claim(fields)


@post(game_paths("", "whisper/claim"), name="station_whisper_claim")
async def whisper_claim(
    request: AnyRequest, db: DB, me: Me, clock: ClockDep, game_id: FromPath[str]
) -> Reply | Template:
    """Whisper the claim the fields describe to field `recipient` (S43; S31: one of the two)."""
    context = await access_game_for_player(db, game_id, me)
    seat = context.seat
    assert seat is not None

    async def work(fields: dict[str, str]) -> Done:
        text = compose_claim(fields)
        recipient = Posted(await names_state(db, context.game), seat, fields).seat_of("recipient")
        action = SendWhisper(seat, recipient, text)
        acted = await do_act(db, context, action, clock=clock, expected_version=version_of(fields))
        return Done("Whisper sent.", {"version": table_epoch(acted.state)})

    async def refused(fields: dict[str, str], refusal: Refused) -> Reply | Template:
        return await _refused(request, db, context, fields, refusal, None)

    return await handle_form(request, f"/games/{game_id}/dossier", work, refused)


async def _refused(
    request: AnyRequest,
    db: DB,
    context: GameContext,
    fields: dict[str, str],
    refusal: Refused,
    channel: str | None,
) -> Reply | Template:
    """The refusal: JSON for a script; for a browser, the reason and the form as it was sent
    (only where the form would be on the game's page: `channel` None is a whisper)."""
    game_id = context.game.public_id
    state = await load_state(db, context.game)
    seat = context.seat
    seen = None if seat is None else view(state, seat)
    form = None if seat is None or seen is None else _form_of(state, seat, seen, channel)
    choices = None if seen is None else claim_choices(seen)
    if is_api(request) or form is None or choices is None:
        # A script keeps its own fields; or there is no form here to show again.
        return await flash_refusal(request, db, context, fields, refusal, channel)
    where, action, recipients = form
    kind = fields.get("kind", "")
    return page(
        "station/chat/claim_refused.html",
        viewer=context.user,
        status_code=refusal.status_code,
        headers=NO_STORE,
        game=await build_game_info(db, context, state),
        refusal=refusal.message,
        where=where,
        c=choices,
        kept=fields,
        only=kind if kind in KINDS else None,
        recipients=recipients,
        action=f"/games/{game_id}/{action}",
        base=f"/games/{game_id}",
        tab="floor" if channel == "floor" else "dossier",
    )


def _form_of(
    state: State, seat: int, seen: dict[str, Any], channel: str | None
) -> tuple[str, str, list[str] | None] | None:
    """(title, action, whisper recipients) of the claim form `seat` (whose view is `seen`) has
    on its page for `channel` (None: a whisper), or None when its page shows no such form."""
    if channel is None:
        recipients: list[str] = seen["me"]["options"]["whisper_recipients"]
        return ("Whisper", "whisper/claim", recipients) if recipients else None
    if channel not in POSTED or not can_post(state, seat, Channel(channel)):
        return None  # S29: the Ring's form is the Ring's alone, also on a refusal
    return TITLES[Channel(channel)], f"claim/{channel}", None


post_claim = channel_post("claim/", "station_claim_post", _claim_text, "Claim posted.", _refused)

HANDLERS = [post_claim, whisper_claim]
"""The claim endpoints, for the chat router."""
