"""The tab pages through the HTTP interface: who may open which tab of which game."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.roles import is_ring
from deaddrop.server.accounts.models import User
from deaddrop.server.station.access import access_game_for_member
from deaddrop.server.station.clock import SystemClock
from deaddrop.server.station.models import StationGame
from deaddrop.server.station.roles_text import role_name
from deaddrop.server.station.service import (
    NewGame,
    do_create_game,
    do_join,
    do_set_spectators,
    do_start,
)
from deaddrop.server.station.store import load_state
from tests.server.visitor import Visitor

RunDB = Callable[[Callable[[AsyncSession], Awaitable[Any]]], Any]
TABS = ("cable", "floor", "dossier", "operations", "roster")
PUBLIC = ("cable", "floor", "roster")


@dataclass
class Table:
    """A started game of six and the browsers at it."""

    game_id: str
    players: list[Visitor]
    """In join order: players[i] holds seat i."""
    codenames: list[str]
    roles: list[str]


async def _user(db: AsyncSession, username: str) -> User:
    user = await db.scalar(select(User).where(User.username == username))
    assert user is not None
    return user


def open_table(run_db: RunDB, players: list[Visitor], *, start: bool = True) -> Table:
    """Alice's game with these players joined in order; started unless told otherwise."""

    async def create(db: AsyncSession) -> str:
        host = await _user(db, players[0].username)
        game = await do_create_game(db, host, NewGame("Operation Gold", 21 * 60, "Europe/Berlin"))
        for visitor in players[1:]:
            await do_join(db, game, await _user(db, visitor.username))
        if start:
            context = await access_game_for_member(db, game.public_id, host)
            await do_start(db, context, SystemClock())
        return game.public_id

    game_id = run_db(create)
    if not start:
        return Table(game_id, players, [], [])

    async def deal(db: AsyncSession) -> tuple[list[str], list[str]]:
        game = await db.scalar(select(StationGame).where(StationGame.public_id == game_id))
        assert game is not None
        state = await load_state(db, game)
        return [s.codename for s in state.seats], [s.role for s in state.seats]

    codenames, roles = run_db(deal)
    return Table(game_id, players, codenames, roles)


@pytest.fixture
def six(alice: Visitor, bob: Visitor, new_visitor: Callable[[], Visitor]) -> list[Visitor]:
    """Alice (the host), Bob and four more, logged in."""
    people = [alice, bob]
    for name in ("carol", "dave", "erin", "frank"):
        visitor = new_visitor()
        assert visitor.sign_up(name).status_code == 200
        people.append(visitor)
    return people


@pytest.fixture
def table(run_db: RunDB, six: list[Visitor]) -> Table:
    """A game of six, started."""
    return open_table(run_db, six)


def set_spectators(run_db: RunDB, table: Table, enabled: bool) -> str | None:
    """Turn the spectator link on or off as the host; its token while on."""

    async def switch(db: AsyncSession) -> str | None:
        host = await _user(db, table.players[0].username)
        context = await access_game_for_member(db, table.game_id, host)
        await do_set_spectators(db, context, enabled, SystemClock())
        return context.game.spectator_token

    token: str | None = run_db(switch)
    return token


def test_each_player_sees_their_tabs_and_only_their_role(table: Table) -> None:
    for seat, player in enumerate(table.players):
        for tab in TABS:
            page = player.get(f"/games/{table.game_id}/{tab}")
            assert page.status_code == 200, (tab, page.text)
            assert f'You are <strong class="codename">{table.codenames[seat]}</strong>' in page.text
            assert 'aria-current="page"' in page.text
            assert page.headers["cache-control"] == "no-store"
        dossier = player.get(f"/games/{table.game_id}/dossier").text
        assert f'<h2 id="role-title">{role_name(table.roles[seat])}</h2>' in dossier
        knows = [
            other
            for other in range(len(table.players))
            if other != seat and is_ring(table.roles[seat]) and is_ring(table.roles[other])
        ]
        for other in knows:
            assert role_name(table.roles[other]) in dossier
        if not is_ring(table.roles[seat]):
            assert "Members of the Ring" not in dossier


def test_an_outsider_gets_404_on_every_tab(table: Table, outsider: Visitor) -> None:
    for tab in TABS:
        page = outsider.get(f"/games/{table.game_id}/{tab}")
        assert page.status_code == 404
        for codename in table.codenames:
            assert codename not in page.text


def test_a_guest_is_asked_to_log_in(table: Table, client: Visitor) -> None:
    page = client.get(f"/games/{table.game_id}/dossier", follow_redirects=False)
    assert page.status_code == 303
    assert page.headers["location"] == f"/login?next=/games/{table.game_id}/dossier"


def test_unknown_games_and_tabs_are_404(table: Table) -> None:
    alice = table.players[0]
    assert alice.get("/games/no-such-game/cable").status_code == 404
    assert alice.get(f"/games/{table.game_id}/archive").status_code == 404


def test_tabs_of_a_game_in_the_lobby_lead_its_members_to_the_lobby(
    run_db: RunDB, six: list[Visitor], outsider: Visitor
) -> None:
    lobby = open_table(run_db, six, start=False)
    page = six[1].get(f"/games/{lobby.game_id}/cable", follow_redirects=False)
    assert page.status_code == 303
    assert page.headers["location"] == f"/games/{lobby.game_id}/lobby"
    assert outsider.get(f"/games/{lobby.game_id}/cable").status_code == 404


def test_spectator_link_works_only_while_enabled(
    run_db: RunDB, table: Table, client: Visitor, outsider: Visitor
) -> None:
    token = set_spectators(run_db, table, True)
    assert token
    landing = client.get(f"/watch/{token}", follow_redirects=False)
    assert landing.status_code == 303
    assert landing.headers["location"] == f"/watch/{token}/cable"
    for viewer in (client, outsider, table.players[1]):
        for tab in PUBLIC:
            page = viewer.get(f"/watch/{token}/{tab}")
            assert page.status_code == 200, (tab, page.text)
            assert "Spectator" in page.text
            assert "You are" not in page.text
            assert "_csrf_token" not in page.text.split("<main")[1]
            for role in table.roles:
                assert role_name(role) not in page.text
        for tab in ("dossier", "operations"):
            assert viewer.get(f"/watch/{token}/{tab}").status_code == 404
    set_spectators(run_db, table, False)
    for tab in PUBLIC:
        assert client.get(f"/watch/{token}/{tab}").status_code == 404
    assert client.get(f"/watch/{token}").status_code == 404


def test_no_spectator_link_by_default(run_db: RunDB, table: Table, client: Visitor) -> None:
    async def token(db: AsyncSession) -> str | None:
        game = await db.scalar(select(StationGame).where(StationGame.public_id == table.game_id))
        assert game is not None
        return game.spectator_token

    assert run_db(token) is None
    assert client.get(f"/watch/{table.game_id}/cable").status_code == 404
