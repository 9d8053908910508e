"""The golden playthroughs in tests/golden/station match a fresh run of tools/golden_station.py."""

from __future__ import annotations

import difflib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "station"
HINT = "if the change is intended, regenerate with: .venv/bin/python tools/golden_station.py"


def load_tool() -> ModuleType:
    """tools/golden_station.py as a module (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "golden_station", ROOT / "tools" / "golden_station.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


TOOL = load_tool()
SCRIPTS = list(TOOL.SCRIPTS)


def test_every_golden_file_comes_from_a_script() -> None:
    on_disk = sorted(path.name for path in GOLDEN.glob("*.txt"))
    assert on_disk == sorted(f"{script.name}.txt" for script in SCRIPTS), HINT


@pytest.mark.parametrize("script", SCRIPTS, ids=[script.name for script in SCRIPTS])
def test_golden_playthrough_is_unchanged(script: Any) -> None:
    name = f"{script.name}.txt"
    _, fresh = TOOL.play(script)
    path = GOLDEN / name
    assert path.exists(), f"{path} is missing; {HINT}"
    stored = path.read_text(encoding="utf-8")
    if fresh != stored:
        diff = difflib.unified_diff(
            stored.splitlines(keepends=True),
            fresh.splitlines(keepends=True),
            f"checked in: {name}",
            f"fresh: {name}",
            n=3,
        )
        shown = "".join(list(diff)[:200])
        pytest.fail(f"{name} no longer matches what the engine shows:\n{shown}\n{HINT}")


@pytest.mark.parametrize("script", SCRIPTS, ids=[script.name for script in SCRIPTS])
def test_golden_game_exercises_kills_recalls_results_and_whispers(script: Any) -> None:
    state, _ = TOOL.play(script)
    assert state.over
    causes = {cause for death in state.deaths for cause in death.causes}
    assert {"recalled", "liquidated"} <= causes
    assert any(record.results for record in state.history)
    assert any(record.whispers for record in state.history)
