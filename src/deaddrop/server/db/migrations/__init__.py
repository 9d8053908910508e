"""Alembic migrations of the Dead Drop database (run them with `deaddrop migrate`)."""

from __future__ import annotations

import re
from pathlib import Path


def numbered(path: str) -> tuple[str, str | None]:
    """A migration's revision and the one it follows, read from its file name `NNNN_slug.py`."""
    # `migrate.alembic_config` names every file after its revision and numbers them in sequence,
    # so the file name already says both; a file that breaks the pattern fails loudly on load.
    found = re.fullmatch(r"(\d{4})_\w+\.py", Path(path).name)
    if found is None:
        raise ValueError(f"a migration's file name is NNNN_slug.py, not {Path(path).name}")
    number = int(found[1])
    return found[1], f"{number - 1:04d}" if number > 1 else None
