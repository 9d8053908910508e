"""Cards server fixtures: the app with bots that move at once (issue 6: instantly in tests)."""

from __future__ import annotations

import pytest
from litestar import Litestar

from deaddrop.server.app import create_app
from deaddrop.server.cards.runtime import BOT_DELAY_ENV
from deaddrop.server.settings import Settings


@pytest.fixture
def app(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Litestar:
    """The application under test, its Cards bots instant."""
    monkeypatch.setenv(BOT_DELAY_ENV, "0")
    return create_app(settings, pouch_runner=False)
