"""One person pressing Join many times at once ends in the lobby, seated once, never a 500."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import httpx
from litestar import Litestar
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.station.game.models import StationGame, StationSeat
from tests.server.station.games.helpers import Person, RunDB, invite_token, open_lobby

PRESSES = 6


def test_simultaneous_joins_by_one_person_all_lead_to_the_lobby(
    host: Person, players: list[Person], run_db: RunDB, app: Litestar
) -> None:
    game_id = open_lobby(host)
    token = invite_token(host, game_id)
    joiner = players[0]
    assert joiner.get(f"/join/{token}").status_code == 200
    cookies = dict(joiner.visitor.http.cookies)
    csrf = joiner.token()

    async def press_all(db: AsyncSession) -> list[httpx.Response]:
        # Real concurrency: every press is in flight at once on the app's own event loop.
        transport = httpx.ASGITransport(app=cast(Any, app))  # an ASGI app, typed its own way
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver.local", cookies=cookies
        ) as browser:
            presses = [
                browser.post(f"/join/{token}", data={"_csrf_token": csrf}) for _ in range(PRESSES)
            ]
            return list(await asyncio.gather(*presses))

    answers = run_db(press_all)
    assert [answer.status_code for answer in answers] == [303] * PRESSES, [
        answer.text[:300] for answer in answers if answer.status_code != 303
    ]
    assert {answer.headers["location"] for answer in answers} == {f"/games/{game_id}/lobby"}

    async def seats(db: AsyncSession) -> tuple[int, int]:
        game = await db.scalar(select(StationGame).where(StationGame.public_id == game_id))
        assert game is not None
        count = await db.scalar(
            select(func.count()).select_from(StationSeat).where(StationSeat.game_id == game.id)
        )
        return int(count or 0), game.lobby_size

    assert run_db(seats) == (2, 2)  # the host and the joiner, once
