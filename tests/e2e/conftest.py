"""Fixtures for browser tests: a live server and a chromium browser (Playwright, sync API)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import CHROMIUM, CHROMIUM_ARGS, need_browser, running_server


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real `deaddrop serve` with a fresh SQLite database."""
    need_browser()
    var_dir: Path = tmp_path_factory.mktemp("e2e-var")
    with running_server(var_dir) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless, driven by Playwright."""
    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()
