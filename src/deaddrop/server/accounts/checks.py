"""`check_*`: validate and normalise what a person typed into an account form."""

from __future__ import annotations

import re
import unicodedata
import zoneinfo
from functools import cache

from deaddrop.server.accounts import limits

_USERNAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
# Deliberately loose: one @, something on each side, a dot in the domain. Proof of an address
# is a confirmation mail, which a later version can send.
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
# Regions whose zones are offered in the picker; legacy aliases (US/Eastern, EST5EDT …) are
# still accepted when typed, but not listed.
_REGIONS = (
    "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe",
    "Indian", "Pacific",
)  # fmt: skip


class InvalidField(ValueError):
    """A field's value was refused; the message is shown to the person next to the field."""


def check_username(raw: str) -> str:
    """A log-in name: 3–30 letters, digits, `_` or `-`, case-insensitive (stored lower case)."""
    username = raw.strip().lower()
    if not username:
        raise InvalidField("Enter a username.")
    if len(username) < limits.USERNAME_MIN or len(username) > limits.USERNAME_MAX:
        raise InvalidField(
            f"Use {limits.USERNAME_MIN} to {limits.USERNAME_MAX} characters for the username."
        )
    if not _USERNAME.fullmatch(username):
        raise InvalidField(
            "Use only letters a–z, digits, '_' and '-' in the username, starting with a letter "
            "or digit."
        )
    return username


def check_password(password: str, *, username: str = "") -> str:
    """A new password: long enough, not absurdly long, and not the username itself."""
    if len(password) < limits.PASSWORD_MIN:
        raise InvalidField(f"Use at least {limits.PASSWORD_MIN} characters for the password.")
    if len(password) > limits.PASSWORD_MAX:
        raise InvalidField(f"Use at most {limits.PASSWORD_MAX} characters for the password.")
    if username and password.strip().lower() == username:
        raise InvalidField("The password must not be the username.")
    return password


def check_display_name(raw: str) -> str:
    """A display name: 1–50 printable characters, surrounding spaces trimmed."""
    name = " ".join(raw.split())
    if not name:
        raise InvalidField("Enter a display name.")
    if len(name) > limits.DISPLAY_NAME_MAX:
        raise InvalidField(
            f"Use at most {limits.DISPLAY_NAME_MAX} characters for the display name."
        )
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise InvalidField("The display name contains control characters.")
    return name


def check_email(raw: str) -> str | None:
    """An optional e-mail address: blank means none."""
    email = raw.strip()
    if not email:
        return None
    if len(email) > limits.EMAIL_MAX:
        raise InvalidField(f"Use at most {limits.EMAIL_MAX} characters for the e-mail address.")
    if not _EMAIL.fullmatch(email):
        raise InvalidField("Enter an e-mail address like name@example.org, or leave it blank.")
    return email


def check_time_zone(raw: str) -> str:
    """An IANA time zone name known to this machine's zone database, e.g. Europe/Berlin."""
    name = raw.strip()
    if name == "UTC" or name in known_time_zones():
        return name
    raise InvalidField("Choose a time zone from the list, e.g. Europe/Berlin.")


@cache
def known_time_zones() -> frozenset[str]:
    """Every zone name the zone database knows."""
    return frozenset(zoneinfo.available_timezones())


@cache
def offered_time_zones() -> dict[str, tuple[str, ...]]:
    """The zones offered in the picker, grouped by region, sorted."""
    grouped: dict[str, list[str]] = {region: [] for region in _REGIONS}
    for name in known_time_zones():
        region = name.split("/", 1)[0]
        if region in grouped and "/" in name:
            grouped[region].append(name)
    return {region: tuple(sorted(names)) for region, names in grouped.items() if names}
