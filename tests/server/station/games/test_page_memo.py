"""A tab page taken from the app's page memo (server/render_memo.py) is the page a fresh
render gives at that moment, for every seat, the host and a spectator, on every tab they may
open, after each kind of change: a post, a vote (with its flash), a whisper, a Pouch, the
viewer's time zone and name. A memo that missed an input would serve the old page (S26–S31:
every number on a page is the viewer's own)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from litestar.response import Response, Template
from markupsafe import Markup

from deaddrop.server import render_memo
from deaddrop.server.hosting.memo import Memo
from deaddrop.server.render_memo import digest, page_key
from deaddrop.server.station.tabs import routes
from deaddrop.server.station.tabs.context import SPECTATOR_TABS, TABS
from tests.server.station.games.helpers import Person, Table
from tests.server.visitor import Visitor

Checked = dict[str, int]


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Checked:
    """Every memoised page the tab routes answer, compared with a fresh render of the same
    request (an empty memo); counts the pages served from the memo and the flashed ones."""
    counts: Checked = {"hits": 0, "pages": 0, "flashed": 0}
    memoised = render_memo.memoised_page

    def compare(request: Any, memo: Memo[bytes, bytes], template: str, **kwargs: Any) -> Any:
        context = {k: v for k, v in kwargs.items() if k not in ("viewer", "headers")}
        key = page_key(request, template, kwargs["viewer"], context)
        hit = key is not None and memo.get(key) is not None
        answer = memoised(request, memo, template, **kwargs)
        if isinstance(answer, Template):  # flashes: rendered by Litestar, never kept
            counts["flashed"] += 1
            return answer
        fresh = memoised(request, Memo(1), template, **kwargs)
        assert isinstance(answer, Response) and isinstance(fresh, Response)
        assert answer.content == fresh.content, (request.url.path, hit)
        counts["hits"] += hit
        counts["pages"] += 1
        return answer

    monkeypatch.setattr(routes, "memoised_page", compare)
    return counts


def _look_at_everything(table: Table, spectator: Visitor, token: str) -> None:
    """Every tab of every seat (the host is seat 0) twice, and the spectator's tabs."""
    for _ in range(2):
        for person in table.people:
            for tab, _label in TABS:
                assert person.get(table.path(f"/{tab}")).status_code == 200
        for tab in SPECTATOR_TABS:
            assert spectator.get(f"/watch/{token}/{tab}").status_code == 200


def test_a_kept_page_is_the_fresh_page_after_every_change(
    table: Table, client: Visitor, checked: Checked
) -> None:
    table.host.form(table.path("/host/spectators"), {"enabled": "yes"})
    token = table.game().spectator_token
    assert token is not None
    host, other = table.people[0], table.people[1]
    changes: list[tuple[str, Callable[[], Any]]] = [
        ("nothing", lambda: None),
        ("post", lambda: other.json(table.api("/chat/floor"), {"text": "a Floor post"})),
        ("vote", lambda: other.form(table.path("/vote"), {"vote": table.codenames[2]})),
        ("flash read", lambda: None),  # the vote's flash shown once, then the kept pages
        ("whisper", lambda: _whisper(table, other)),
        ("zone", lambda: _profile(other, "Other One", "Asia/Tokyo")),
        ("name", lambda: _profile(host, "Alice Renamed", "Europe/Berlin")),
        ("pouch", table.pouch),
    ]
    for name, change in changes:
        change()
        before = dict(checked)
        _look_at_everything(table, client, token)
        assert checked["pages"] > before["pages"], name
        assert checked["hits"] > before["hits"], name  # the memo served pages after each
    assert checked["flashed"] >= 1  # the vote's flash was not memoised


def _whisper(table: Table, sender: Person) -> None:
    answer = sender.form(
        table.path("/whisper"), {"recipient": table.codenames[3], "text": "a secret whisper"}
    )
    assert answer.status_code == 303


def _profile(person: Person, name: str, zone: str) -> None:
    fields = {"display_name": name, "email": "", "time_zone": zone}
    assert person.form("/account", fields).status_code == 303


@dataclass(frozen=True, slots=True)
class _Seat:
    codename: str
    inactive: bool


@dataclass
class _Panel:
    log: Markup
    seats: tuple[_Seat, ...]


def test_the_key_tells_apart_every_escaped_text_and_dataclass_field() -> None:
    """The key pickles escaped text and dataclasses its own way (`_KeyPickler`): each still
    counts with its class and every value, so a page differing in any of them is not reused."""

    def key(log: str, codename: str = "MAGPIE", inactive: bool = False) -> bytes | None:
        return digest({"chat": [_Panel(Markup(log), (_Seat(codename, inactive),))]})

    assert key("<b>hi</b>") == key("<b>hi</b>") is not None
    others = [key("<b>ho</b>"), key("<b>hi</b>", "RAVEN"), key("<b>hi</b>", inactive=True)]
    assert len({key("<b>hi</b>"), *others}) == 4
    assert digest(Markup("x")) != digest("x")  # escaped text is not the same input as raw text
    assert digest(_Seat("A", False)) != digest(("A", False))
    panel = _Panel(Markup("x"), ())
    before = digest(panel)
    panel.extra = "more"  # type: ignore[attr-defined]  # not a field: pickled with the rest
    assert digest(panel) != before
