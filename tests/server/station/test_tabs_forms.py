"""The tabs' forms against the real save endpoints: save, see it on the page, refusals shown."""

from __future__ import annotations

import re

import httpx

from deaddrop.server.station.tabs.roles_text import role_name
from tests.server.station.tabs_fixtures import (  # noqa: F401 (fixtures)
    RunDB,
    Table,
    set_spectators,
    six_players,
    started_table,
)
from tests.server.visitor import Visitor, csrf_token_in

_VERSION = re.compile(r'name="version" value="(\d+)"')


def send(visitor: Visitor, page: str, action: str, fields: dict[str, str]) -> httpx.Response:
    """Open a tab, then post one of its forms as a browser would (token and version included)."""
    html = visitor.get(page).text
    version = _VERSION.search(html)
    assert version is not None, "every form carries the page's version"
    data = {**fields, "_csrf_token": csrf_token_in(html), "version": version.group(1)}
    return visitor.http.post(action, data=data, follow_redirects=True)


def actor(table: Table) -> int:
    """A seat with an Operation of its own on Day 1 (anyone but the Ringleader)."""
    return next(seat for seat, role in enumerate(table.roles) if role != "ringleader")


def test_a_vote_from_the_floor_shows_in_the_tally_for_all(
    run_db: RunDB, table: Table, client: Visitor
) -> None:
    base = f"/games/{table.game_id}"
    target = table.codenames[2]
    page = send(table.players[1], f"{base}/floor", f"{base}/vote", {"vote": target})
    assert page.status_code == 200
    assert str(page.url).endswith(f"{base}/floor")
    assert "Vote saved." in page.text
    assert f"Now: <strong>{target}</strong>" in page.text
    token = set_spectators(run_db, table, True)
    watched = client.get(f"/watch/{token}/floor").text
    assert re.search(rf"{target}</span>\s*<span class=\"tally-count\">1 vote<", watched)
    assert f"from {table.codenames[1]}" in watched
    withdrawn = send(table.players[1], f"{base}/floor", f"{base}/vote/withdraw", {})
    assert "No votes for anyone yet." in withdrawn.text


def test_an_operation_from_the_operations_tab_is_shown_as_saved(table: Table) -> None:
    seat = actor(table)
    base = f"/games/{table.game_id}"
    target = table.codenames[(seat + 1) % 6]
    page = send(table.players[seat], f"{base}/operations", f"{base}/operation", {"target": target})
    assert "Operation saved." in page.text
    assert f'value="{target}" checked' in page.text
    assert f"{target}.</strong>" in page.text
    page = send(table.players[seat], f"{base}/operations", f"{base}/operation/withdraw", {})
    assert "No action (nothing saved)." in page.text or "Lie low (nothing saved)." in page.text


def test_a_refused_save_comes_back_in_plain_words(table: Table) -> None:
    ringleader = table.roles.index("ringleader")
    base = f"/games/{table.game_id}"
    others = [c for i, c in enumerate(table.codenames) if i != ringleader]
    assert "/order" not in table.players[ringleader].get(f"{base}/operations").text
    # S10: no order on Day 1; a hand-made post is refused and the Operations tab says why.
    page = send(
        table.players[ringleader],
        f"{base}/floor",
        f"{base}/order",
        {"target": others[0], "performer": table.codenames[ringleader]},
    )
    assert page.status_code == 200
    assert str(page.url).endswith(f"{base}/operations")
    assert 'class="flash flash-error"' in page.text
    assert "No action (nothing saved)." in page.text


def test_a_final_cable_is_saved_and_escaped(table: Table) -> None:
    base = f"/games/{table.game_id}"
    text = "<script>alert('x')</script>\nTrust nobody."
    page = send(table.players[3], f"{base}/dossier", f"{base}/final-cable", {"text": text})
    assert "Final Cable saved." in page.text
    assert "<script>alert" not in page.text
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;\nTrust nobody.</textarea>" in page.text
    assert f'<h2 id="role-title">{role_name(table.roles[3])}</h2>' in page.text
