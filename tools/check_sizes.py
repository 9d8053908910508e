"""Size contract: no file in src/ over 400 lines, no function over 60 lines (DESIGN.md).

Files: the Python, and the stylesheets, scripts and templates beside it. Functions: Python's.
Migrations are left out (generated, and never edited once released), and so are the files
named in `PENDING`, which are being split elsewhere: each is listed with its reason, and the
list only ever shrinks.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60
SKIPPED = ("deaddrop/server/db/migrations/",)
# What a person writes and reads beside the code: the package's metadata (`*.egg-info`,
# written by pip) is not among them.
MEASURED = ("*.py", "*.css", "*.js", "*.html")
PENDING: dict[str, str] = {}


def long_functions(path: Path) -> list[tuple[int, str, int]]:
    """Every (line, name, length) of a function in `path` longer than the limit."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append((node.lineno, node.name, length))
    return found


def problems() -> list[str]:
    """What breaks the contract, one line each."""
    found = []
    paths = sorted(path for pattern in MEASURED for path in SRC.rglob(pattern))
    for path in paths:
        name = path.relative_to(SRC).as_posix()
        if name.startswith(SKIPPED) or name in PENDING:
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_FILE_LINES:
            found.append(f"src/{name}: {lines} lines (at most {MAX_FILE_LINES})")
        if path.suffix != ".py":
            continue
        for line, function, length in long_functions(path):
            found.append(
                f"src/{name}:{line}: {function} is {length} lines (at most {MAX_FUNCTION_LINES})"
            )
    return found


def main() -> int:
    """Print what breaks the contract; non-zero when anything does."""
    found = problems()
    for line in found:
        print(line)
    if found:
        return 1
    print(f"size contract kept: files ≤ {MAX_FILE_LINES} lines, functions ≤ {MAX_FUNCTION_LINES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
