"""`deaddrop serve` tunes the cycle collector (commands/gc_tuning.py): full collections far rarer
than Python's defaults (one over the heap of thousands of open pages paused them all for over a
second), young ones still small (a young collection of 10,000 objects paused every page 10 ms)."""

from __future__ import annotations

import argparse
import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from deaddrop.commands import graceful, serve
from deaddrop.commands.gc_tuning import SERVING_THRESHOLDS


@pytest.fixture
def thresholds_restored() -> Iterator[None]:
    """Python's thresholds as they were before the test."""
    before = gc.get_threshold()
    try:
        yield
    finally:
        gc.set_threshold(*before)


class _Server:
    """Stands in for uvicorn: started, served nothing."""

    started = True

    def __init__(self, *_args: Any, **_kwargs: Any) -> None:
        pass

    def run(self) -> None:
        """Serve nothing."""


def test_serving_sets_the_thresholds_once_the_app_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, thresholds_restored: None
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'serve.sqlite3'}")
    monkeypatch.setenv("SECRET_KEY", "serve-gc-tuning-test-secret-key-long-enough")
    monkeypatch.setattr(graceful, "GracefulServer", _Server)
    gc.set_threshold(700, 10, 10)
    arguments = argparse.Namespace(host="127.0.0.1", port=0, proxy_headers=False)
    assert serve.run_serve(arguments) == 0
    assert gc.get_threshold() == SERVING_THRESHOLDS
    young, middle, full = SERVING_THRESHOLDS
    assert young <= 1_000  # a young collection stays short
    assert young * middle * full >= 10_000_000 > 700 * 10 * 10  # a full one stays rare
