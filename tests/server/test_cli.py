"""`deaddrop migrate` and the `serve` command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from deaddrop.cli import build_parser, main
from deaddrop.server.db.migrate import alembic_config


def test_migrate_creates_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "fresh.sqlite3"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    monkeypatch.setenv("DEADDROP_VAR_DIR", str(tmp_path))
    assert main(["migrate"]) == 0
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert f"Database at revision {head}" in capsys.readouterr().out
    assert database.exists()
    assert main(["migrate"]) == 0  # idempotent


def test_serve_options() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9000"])
    assert (args.host, args.port) == ("0.0.0.0", 9000)
