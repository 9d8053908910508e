"""What a finished game's tabs say (issue 11): a burned player's Final Cable is no longer
"sealed until burned", no empty chat box for a channel nobody could use, no "new" badges."""

from __future__ import annotations

import re

from deaddrop.engine.station.roles import is_ring
from tests.server.station.games.helpers import Table

BADGE = re.compile(r'class="tab-badge"')


def _finish(table: Table) -> int:
    """Remove one loyal non-host player, then both moles (S40, S24); the burned loyal seat."""
    ring = [seat for seat, role in enumerate(table.roles) if is_ring(role)]
    loyal = next(seat for seat in range(1, 6) if seat not in ring)
    for seat in (loyal, *ring):
        removed = table.host.json(
            table.api("/host/remove"), {"codename": table.codenames[seat], "confirm": True}
        )
        assert removed.status_code == 200, removed.text
    assert table.game().status == "over"
    return loyal


def test_a_burned_players_final_cable_is_not_sealed_after_the_game(table: Table) -> None:
    loyal = _finish(table)
    burned = table.people[loyal].get(table.path("/dossier")).text
    assert "sealed until burned" not in burned
    assert "Final Cable · published when you were burned" in burned
    survivor = next(seat for seat in range(6) if seat != loyal and not is_ring(table.roles[seat]))
    living = table.people[survivor].get(table.path("/dossier")).text
    assert "sealed until burned" not in living
    assert "Final Cable · never published: you came through the game" in living


def test_a_burned_players_final_cable_is_not_sealed_during_the_game(table: Table) -> None:
    loyal = next(seat for seat in range(1, 6) if not is_ring(table.roles[seat]))
    removed = table.host.json(
        table.api("/host/remove"), {"codename": table.codenames[loyal], "confirm": True}
    )
    assert removed.status_code == 200, removed.text
    page = table.people[loyal].get(table.path("/dossier")).text
    assert "sealed until burned" not in page
    assert "Final Cable · published when you were burned" in page


def test_six_players_have_no_interrogation_box_after_the_game(table: Table) -> None:
    assert "interrogator" not in table.roles  # S1: no Interrogator at six
    _finish(table)
    for person in table.people:
        dossier = person.get(table.path("/dossier")).text
        assert 'id="chat-interrogation"' not in dossier
        assert "Interrogation" not in dossier


def test_no_tab_badges_after_the_game(table: Table) -> None:
    for seat in (1, 2):
        posted = table.people[seat].json(table.api("/chat/floor"), {"text": f"hello {seat}"})
        assert posted.status_code == 200, posted.text
    assert BADGE.search(table.people[3].get(table.path("/cable")).text)  # news before the end
    _finish(table)
    for person in table.people:
        for tab in ("cable", "floor", "dossier", "roster"):
            assert not BADGE.search(person.get(table.path(f"/{tab}")).text), (person, tab)
