"""The tab pages through the HTTP interface: who may open which tab of which game."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.roles import is_ring
from deaddrop.server.station.game.models import StationGame
from deaddrop.server.station.tabs.roles_text import role_name
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    open_table,
    set_spectators,
    six_players,
    started_table,
)
from tests.server.visitor import Visitor

TABS = ("cable", "floor", "dossier", "operations", "roster")
PUBLIC = ("cable", "floor", "roster")


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
    lobby = open_table(run_db, six, started=False)
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
