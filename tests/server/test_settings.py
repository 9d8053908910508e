"""Settings from the environment, and database URL normalisation."""

from __future__ import annotations

import stat
from datetime import timedelta
from pathlib import Path

import pytest

from deaddrop.server.db.engine import normalise_url
from deaddrop.server.jobs import bot_timing
from deaddrop.server.settings import Settings


def test_defaults_use_a_sqlite_file_and_a_persisted_secret(tmp_path: Path) -> None:
    first = Settings.from_env({}, var_dir=tmp_path)
    assert first.database_url.startswith("sqlite+aiosqlite:///")
    assert first.database_url.endswith("/deaddrop.sqlite3")
    assert len(first.secret_key) >= 32
    secret_file = tmp_path / "secret_key"
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    # A restart reads the same key back, so CSRF tokens in open pages stay valid.
    assert Settings.from_env({}, var_dir=tmp_path).secret_key == first.secret_key


def test_environment_overrides(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {
            "DATABASE_URL": "postgresql://u@db/dd",
            "SECRET_KEY": "from-env",
            "REDIS_URL": "redis://cache:6379/0",
            "DATABASE_SCHEMA": "deaddrop",
            "SECURE_COOKIES": "true",
        },
        var_dir=tmp_path,
    )
    assert settings.database_url == "postgresql://u@db/dd"
    assert settings.secret_key == "from-env"
    assert settings.redis_url == "redis://cache:6379/0"
    assert settings.database_schema == "deaddrop"
    assert settings.secure_cookies
    assert not (tmp_path / "secret_key").exists()


@pytest.mark.parametrize(
    ("given", "driver"),
    [
        ("postgresql://u:p@h:5432/db", "postgresql+asyncpg"),
        ("postgres://u@h/db", "postgresql+asyncpg"),
        ("postgresql+psycopg://u@h/db", "postgresql+asyncpg"),
        ("postgresql+asyncpg://u@h/db", "postgresql+asyncpg"),
        ("sqlite:///var/x.sqlite3", "sqlite+aiosqlite"),
        ("sqlite+aiosqlite:////tmp/x.sqlite3", "sqlite+aiosqlite"),
    ],
)
def test_urls_are_normalised_to_async_drivers(given: str, driver: str) -> None:
    assert normalise_url(given).drivername == driver


def test_unsupported_database_is_refused() -> None:
    with pytest.raises(ValueError, match="unsupported database"):
        normalise_url("mysql://u@h/db")


def test_bot_decision_interval_defaults_to_three_minutes_and_is_read_from_env(
    tmp_path: Path,
) -> None:
    assert Settings.from_env({}, var_dir=tmp_path).bot_decision_seconds == 180
    quick = Settings.from_env({"BOT_DECISION_SECONDS": "0"}, var_dir=tmp_path)
    assert bot_timing(quick).min_interval == timedelta(0)


def test_known_pages_keep_64_megabytes_unless_told(tmp_path: Path) -> None:
    assert Settings.from_env({}, var_dir=tmp_path).known_pages_mb == 64
    assert Settings.from_env({"KNOWN_PAGES_MB": "0"}, var_dir=tmp_path).known_pages_mb == 0
