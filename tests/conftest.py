"""Marks every test that needs a service besides Python: `services` (pyproject.toml).

A test needs PostgreSQL when it runs on the `postgresql` database, Redis when it takes the
`redis_url` fixture, and chromium when it is a browser test (`tests/e2e/`). `.ci/run` runs the
marked tests once more with the services unset, to prove that each of them skips cleanly.

Under pytest-xdist (`make test` runs `-n`), each worker gets a PostgreSQL database and a Redis
db of its own (tests/workers.py). `--dist loadfile` keeps each test file on one worker: a browser
module starts one server and one chromium (module fixtures), and its tests share screenshot
folders, which each test clears as it begins.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.workers import isolate_this_worker

E2E = Path(__file__).resolve().parent / "e2e"


def needs_a_service(item: pytest.Item) -> bool:
    """Whether this test needs PostgreSQL, Redis or chromium to run."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("empty_database") == "postgresql":
        return True
    if "redis_url" in getattr(item, "fixturenames", ()):
        return True
    return E2E in item.path.parents


def pytest_configure(config: pytest.Config) -> None:
    """On an xdist worker, use that worker's own PostgreSQL database and Redis db."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        isolate_this_worker(workerinput["workerid"])


@pytest.hookimpl(tryfirst=True)  # before `-m` selects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Add the `services` marker where it belongs."""
    for item in items:
        if needs_a_service(item):
            item.add_marker(pytest.mark.services)
