"""The account forms as typed values, and their validation into per-field messages."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from deaddrop.server.accounts.checks import (
    InvalidField,
    check_display_name,
    check_email,
    check_password,
    check_time_zone,
    check_username,
)

T = TypeVar("T")
Errors = dict[str, str]
"""Field name → message shown next to it; the key `form` is for the form as a whole."""


@dataclass
class SignUpForm:
    """What the sign-up form posts."""

    username: str = ""
    display_name: str = ""
    password: str = ""
    password_again: str = ""
    next: str = "/"
    """Where to go once signed up (an invitation, say); checked by `safe_next`."""


@dataclass
class LoginForm:
    """What the log-in form posts."""

    username: str = ""
    password: str = ""
    next: str = "/"


@dataclass
class PasswordForm:
    """What the change-password form posts."""

    old_password: str = ""
    new_password: str = ""
    new_password_again: str = ""


@dataclass
class ProfileForm:
    """What the profile form posts (a checkbox that is not ticked is not posted at all)."""

    display_name: str = ""
    email: str = ""
    time_zone: str = "UTC"
    mail_digests: str = ""
    mail_reminders: str = ""


@dataclass(frozen=True)
class SignUp:
    """Checked sign-up values."""

    username: str
    display_name: str
    password: str


@dataclass(frozen=True)
class Profile:
    """Checked profile values."""

    display_name: str
    email: str | None
    time_zone: str
    mail_digests: bool = False
    mail_reminders: bool = False


_TICKED = {"on", "yes", "1", "true"}


def ticked(value: str) -> bool:
    """Whether a posted checkbox value means "ticked"."""
    return value.strip().lower() in _TICKED


def field(errors: Errors, name: str, check: Callable[[], T], fallback: T) -> T:
    """Run one check; on refusal record its message under `name` and return `fallback`."""
    try:
        return check()
    except InvalidField as refusal:
        errors[name] = str(refusal)
        return fallback


def validate_sign_up(form: SignUpForm) -> tuple[SignUp, Errors]:
    """Checked values and the messages for every refused field, all of them at once (the
    password check is slow: call this off the event loop)."""
    errors: Errors = {}
    username = field(errors, "username", lambda: check_username(form.username), "")
    display_name = field(errors, "display_name", lambda: check_display_name(form.display_name), "")
    # Compared with what was typed even when the username itself was refused.
    typed_name = username or form.username.strip().lower()
    password = _new_password(
        errors,
        "password",
        (form.password, form.password_again),
        username=typed_name,
        avoid=form.display_name.split(),
        differ="The two passwords differ.",
    )
    return SignUp(username=username, display_name=display_name, password=password), errors


def validate_new_password(
    form: PasswordForm, username: str, display_name: str = ""
) -> tuple[str, Errors]:
    """The checked new password and the messages for every refused field (slow: call it off
    the event loop)."""
    errors: Errors = {}
    if not form.old_password:
        errors["old_password"] = "Enter your current password."
    new = _new_password(
        errors,
        "new_password",
        (form.new_password, form.new_password_again),
        username=username,
        avoid=display_name.split(),
        differ="The two new passwords differ.",
    )
    return new, errors


def _new_password(
    errors: Errors,
    name: str,
    typed: tuple[str, str],
    *,
    username: str,
    avoid: Iterable[str],
    differ: str,
) -> str:
    """A new password typed twice (`name`, `<name>_again`): checked, and the two compared."""
    password = field(
        errors, name, lambda: check_password(typed[0], username=username, avoid=avoid), ""
    )
    if typed[0] != typed[1]:
        errors[f"{name}_again"] = differ
    return password


def validate_profile(form: ProfileForm) -> tuple[Profile, Errors]:
    """Checked profile values and the messages for every refused field."""
    errors: Errors = {}
    profile = Profile(
        display_name=field(
            errors, "display_name", lambda: check_display_name(form.display_name), ""
        ),
        email=field(errors, "email", lambda: check_email(form.email), None),
        time_zone=field(errors, "time_zone", lambda: check_time_zone(form.time_zone), "UTC"),
        mail_digests=ticked(form.mail_digests),
        mail_reminders=ticked(form.mail_reminders),
    )
    wants_mail = profile.mail_digests or profile.mail_reminders
    if wants_mail and profile.email is None and "email" not in errors:
        errors["email"] = "Enter an e-mail address to get the mails you ticked, or untick them."
    return profile, errors
