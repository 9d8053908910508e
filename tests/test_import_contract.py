"""The engine imports nothing but the standard library (DESIGN.md)."""

import importlib.util
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "check_engine_imports.py"


def test_engine_imports_only_the_standard_library() -> None:
    spec = importlib.util.spec_from_file_location("check_engine_imports", TOOL)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.violations() == []
