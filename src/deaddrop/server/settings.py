"""Server settings, read once from the environment."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from deaddrop.server.mail.settings import MailSettings

DEFAULT_VAR_DIR = Path("var")
SECRET_FILE_NAME = "secret_key"
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Settings:
    """Everything the web app needs to know about where it runs."""

    database_url: str
    """SQLAlchemy URL; `postgresql://…` is normalised to the asyncpg driver."""
    secret_key: str
    """Signs the CSRF tokens; keep it stable across restarts and processes."""
    redis_url: str | None = None
    """When set, the login throttle is shared through Redis instead of the database."""
    database_schema: str | None = None
    """PostgreSQL only: the schema to use (the search_path), e.g. to share one database."""
    secure_cookies: bool = False
    """Send cookies with `Secure`: turn on whenever the site is served over HTTPS."""
    debug: bool = False
    """Litestar's debug mode: tracebacks in error responses. Never in production."""
    login_attempts_per_user: int = 5
    """Failed log-ins allowed per username within one window."""
    login_attempts_per_ip: int = 20
    """Failed log-ins allowed per client address within one window."""
    login_window_seconds: int = 15 * 60
    """Length of the login throttle window."""
    chat_posts_per_window: int = 5
    """Station chat messages a player may send per game within one window (0: no limit)."""
    chat_window_seconds: int = 15
    """Length of the chat's flood window."""
    bot_decision_seconds: int = 180
    """A Station bot seat decides at most this often, however much it sees change (issue 14)."""
    max_requests_in_flight: int = 64
    """Requests one process serves at once (live streams apart); more get 503 + Retry-After."""
    max_live_streams: int = 10_000
    """Live streams one process holds open at once; more get 503 + Retry-After."""
    pool_timeout_seconds: float = 10.0
    """How long a request waits for a database connection before its 503 (not a 500)."""
    pool_size: int = 20
    """Database connections one process keeps open once it has opened them."""
    pool_overflow: int = 10
    """More connections it opens at a busy moment, each closed again when given back (on
    PostgreSQL each is a server process started and ended: too dear to do every few requests,
    so the pool itself is sized for the usual load)."""
    known_pages_mb: int = 64
    """Megabytes of unchanged tab pages one process keeps to send again (0: none kept)."""
    quick_posts: bool = True
    """Serve a game's JSON saves past Litestar's generic request work (server/quick_posts.py)."""
    shared_commits: bool = True
    """On SQLite, let the saves that arrive while a commit runs commit together
    (server/db/shared_commits.py)."""
    lone_statements: bool = True
    """On PostgreSQL, send the statements that stand alone on connections of their own, off
    the pool, while the request holds none (server/db/lone_statements.py)."""
    mail: MailSettings = field(default_factory=MailSettings)
    """SMTP and the player mails (digest, reminder); off while `SMTP_HOST` is unset."""

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, var_dir: Path | None = None
    ) -> Settings:
        """Settings from environment variables, with development defaults under `./var/`."""
        env = os.environ if env is None else env
        var = Path(env.get("DEADDROP_VAR_DIR") or var_dir or DEFAULT_VAR_DIR)
        database_url = env.get("DATABASE_URL") or default_database_url(var)
        return cls(
            database_url=database_url,
            secret_key=env.get("SECRET_KEY") or persistent_secret(var),
            redis_url=env.get("REDIS_URL") or None,
            database_schema=env.get("DATABASE_SCHEMA") or None,
            secure_cookies=env.get("SECURE_COOKIES", "").lower() in _TRUE,
            debug=env.get("DEADDROP_DEBUG", "").lower() in _TRUE,
            chat_posts_per_window=int(env.get("CHAT_POSTS_PER_WINDOW") or 5),
            chat_window_seconds=int(env.get("CHAT_WINDOW_SECONDS") or 15),
            bot_decision_seconds=int(env.get("BOT_DECISION_SECONDS") or 180),
            max_requests_in_flight=int(env.get("MAX_REQUESTS_IN_FLIGHT") or 64),
            max_live_streams=int(env.get("MAX_LIVE_STREAMS") or 10_000),
            pool_timeout_seconds=float(env.get("DATABASE_POOL_TIMEOUT") or 10.0),
            pool_size=int(env.get("DATABASE_POOL_SIZE") or 20),
            pool_overflow=int(env.get("DATABASE_POOL_OVERFLOW") or 10),
            known_pages_mb=int(env.get("KNOWN_PAGES_MB") or 64),
            quick_posts=env.get("QUICK_POSTS", "1").lower() not in _FALSE,
            shared_commits=env.get("SHARED_COMMITS", "1").lower() not in _FALSE,
            lone_statements=env.get("LONE_STATEMENTS", "1").lower() not in _FALSE,
            mail=MailSettings.from_env(env),
        )


def default_database_url(var_dir: Path) -> str:
    """The embedded default: a SQLite file under the var directory."""
    return f"sqlite+aiosqlite:///{(var_dir / 'deaddrop.sqlite3').resolve()}"


def persistent_secret(var_dir: Path) -> str:
    """Read the development secret key, creating it (mode 0600) on first use."""
    path = var_dir / SECRET_FILE_NAME
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    var_dir.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_urlsafe(48)
    # O_EXCL: two processes starting at once must not both write a different key.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="utf-8").strip()
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(secret + "\n")
    return secret
