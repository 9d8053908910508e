"""The tab pages' memos and the known journal positions belong to one app: two apps in one
process (as the tests build them, each on its own database, where the same game id and journal
seq may name other games) never read each other's entries, and a session of no app keeps its
own."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.app import create_app
from deaddrop.server.live.known_positions import KNOWN_POSITIONS_KEY, known_positions
from deaddrop.server.settings import Settings
from deaddrop.server.station.tabs.memos import PAGE_MEMOS_KEY, PageMemos, page_memos
from tests.server.conftest import SECRET


def _settings(tmp_path: Path, name: str) -> Settings:
    return Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / name}", secret_key=SECRET)


def test_each_app_has_its_own_memos(tmp_path: Path) -> None:
    first = create_app(_settings(tmp_path, "a.sqlite3"))
    second = create_app(_settings(tmp_path, "b.sqlite3"))
    memos = first.state[PAGE_MEMOS_KEY]
    assert isinstance(memos, PageMemos)
    assert memos is not second.state[PAGE_MEMOS_KEY]
    one, other = first.state.sessionmaker(), second.state.sessionmaker()
    assert page_memos(one) is memos  # the app's sessions share the app's memos
    assert page_memos(first.state.sessionmaker()) is memos
    assert page_memos(other) is second.state[PAGE_MEMOS_KEY]

    assert known_positions(one) is first.state[KNOWN_POSITIONS_KEY]
    known_positions(one).advance("station:g1", 2, 7, 3)  # the same stream in both databases
    assert known_positions(one).get("station:g1", 2) == (7, 3)
    assert known_positions(other).get("station:g1", 2) is None


def test_a_session_of_no_app_keeps_its_own() -> None:
    lone, another = AsyncSession(), AsyncSession()
    known_positions(lone).advance("station:g1", 2, 7, 3)
    assert known_positions(lone).get("station:g1", 2) == (7, 3)
    assert known_positions(another).get("station:g1", 2) is None
    assert known_positions(lone) is known_positions(lone)
    assert page_memos(lone) is page_memos(lone)
