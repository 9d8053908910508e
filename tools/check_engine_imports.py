"""Import contract: deaddrop.engine imports only the standard library and itself.

The engine must stay pure (DESIGN.md), so besides third-party packages it may not import
the clock, global randomness, I/O-bound or network modules.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "src" / "deaddrop" / "engine"
# Standard-library modules that would make the engine impure (clock, global RNG, I/O, web).
IMPURE = {
    "time", "datetime", "random", "secrets", "asyncio", "socket", "sqlite3", "threading",
    "multiprocessing", "subprocess", "http", "urllib", "os", "shutil", "tempfile", "logging",
}  # fmt: skip


def imported_roots(path: Path) -> list[tuple[int, str]]:
    """Every (line, top-level module) that a file imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def violations() -> list[str]:
    """Human-readable lines, one per forbidden import."""
    problems = []
    for path in sorted(ENGINE.rglob("*.py")):
        for line, module in imported_roots(path):
            root = module.split(".")[0]
            if module == "deaddrop.engine" or module.startswith("deaddrop.engine."):
                continue
            if root in sys.stdlib_module_names and root not in IMPURE:
                continue
            problems.append(f"{path.relative_to(ENGINE.parent.parent.parent)}:{line}: {module}")
    return problems


def main() -> int:
    """Print every violation and fail when there is one."""
    problems = violations()
    for problem in problems:
        print(f"engine import contract broken: {problem}", file=sys.stderr)
    if not problems:
        print("engine import contract kept: standard library only")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
