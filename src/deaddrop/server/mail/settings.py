"""Mail settings from the environment: the SMTP server, the sender, links, reminder timing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from email.headerregistry import Address
from email.utils import parseaddr
from urllib.parse import urlsplit

_TRUE = {"1", "true", "yes", "on"}
DEFAULT_BASE_URL = "http://127.0.0.1:8000"
DEFAULT_FROM = "Dead Drop <deaddrop@localhost>"
DEFAULT_REMINDER_MINUTES = 120


@dataclass(frozen=True)
class MailSettings:
    """Where and how mail goes out; mail is off while `smtp_host` is None."""

    smtp_host: str | None = None
    """The SMTP server; None turns every mail off (nothing runs)."""
    smtp_port: int = 25
    """Its port: 25 by default, 587 with STARTTLS, 465 with implicit TLS."""
    smtp_username: str | None = None
    """Log in with this name (and the password) when set."""
    smtp_password: str | None = None
    """The SMTP password; never logged."""
    smtp_starttls: bool = False
    """Upgrade the connection with STARTTLS (and refuse to send if the server cannot)."""
    smtp_tls: bool = False
    """Speak TLS from the first byte (port 465, "SMTPS")."""
    smtp_timeout: float = 30.0
    """Seconds to wait for each step of an SMTP conversation."""
    mail_from: str = DEFAULT_FROM
    """The From header and envelope sender, e.g. `Dead Drop <noreply@example.org>`."""
    public_base_url: str = DEFAULT_BASE_URL
    """Where people reach the site, for the links in mails (no trailing slash)."""
    reminder_minutes_before: int = DEFAULT_REMINDER_MINUTES
    """How long before a deadline the reminder goes out; 0 sends no reminders."""

    @property
    def enabled(self) -> bool:
        """Whether mail is configured at all."""
        return self.smtp_host is not None

    @property
    def sender_address(self) -> str:
        """The bare address of `mail_from` (the SMTP envelope sender)."""
        return parseaddr(self.mail_from)[1]

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> MailSettings:
        """Mail settings from `SMTP_*`, `MAIL_FROM`, `PUBLIC_BASE_URL`, `REMINDER_*` variables."""
        starttls = _flag(env, "SMTP_STARTTLS")
        tls = _flag(env, "SMTP_TLS")
        if starttls and tls:
            raise ValueError("set SMTP_STARTTLS or SMTP_TLS, not both")
        default_port = 465 if tls else 587 if starttls else 25
        return cls(
            smtp_host=env.get("SMTP_HOST") or None,
            smtp_port=_int(env, "SMTP_PORT", default_port, low=1, high=65535),
            smtp_username=env.get("SMTP_USERNAME") or None,
            smtp_password=env.get("SMTP_PASSWORD") or None,
            smtp_starttls=starttls,
            smtp_tls=tls,
            smtp_timeout=float(_int(env, "SMTP_TIMEOUT", 30, low=1, high=600)),
            mail_from=check_sender(env.get("MAIL_FROM") or DEFAULT_FROM),
            public_base_url=check_base_url(env.get("PUBLIC_BASE_URL") or DEFAULT_BASE_URL),
            reminder_minutes_before=_int(
                env, "REMINDER_MINUTES_BEFORE", DEFAULT_REMINDER_MINUTES, low=0, high=7 * 24 * 60
            ),
        )


def check_sender(raw: str) -> str:
    """A From value with one address that has a domain: `Name <a@b>` or `a@b`."""
    name, address = parseaddr(raw)
    if "@" not in address or address.startswith("@") or address.endswith("@"):
        raise ValueError(f"MAIL_FROM needs an address like noreply@example.org, not {raw!r}")
    user, domain = address.rsplit("@", 1)
    return str(Address(display_name=name, username=user, domain=domain))


def check_base_url(raw: str) -> str:
    """An http(s) URL with a host, without a trailing slash."""
    url = raw.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"PUBLIC_BASE_URL must be like https://example.org, not {raw!r}")
    return url


def _flag(env: Mapping[str, str], name: str) -> bool:
    return env.get(name, "").strip().lower() in _TRUE


def _int(env: Mapping[str, str], name: str, default: int, *, low: int, high: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, not {value}")
    return value
