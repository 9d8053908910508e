"""Mail settings from the environment: off by default, ports by TLS mode, values checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from deaddrop.server.mail.settings import MailSettings
from deaddrop.server.settings import Settings


def test_mail_is_off_until_an_smtp_host_is_set(tmp_path: Path) -> None:
    settings = Settings.from_env({"SECRET_KEY": "k"}, var_dir=tmp_path)
    assert not settings.mail.enabled
    assert settings.mail == MailSettings()
    assert settings.mail.public_base_url == "http://127.0.0.1:8000"
    assert settings.mail.reminder_minutes_before == 120


def test_every_mail_variable(tmp_path: Path) -> None:
    env = {
        "SECRET_KEY": "k",
        "SMTP_HOST": "smtp.example.org",
        "SMTP_PORT": "2525",
        "SMTP_USERNAME": "deaddrop",
        "SMTP_PASSWORD": "s3cret",
        "SMTP_STARTTLS": "true",
        "SMTP_TIMEOUT": "12",
        "MAIL_FROM": "Station Berlin <noreply@example.org>",
        "PUBLIC_BASE_URL": "https://deaddrop.example.org/",
        "REMINDER_MINUTES_BEFORE": "45",
    }
    mail = Settings.from_env(env, var_dir=tmp_path).mail
    assert mail.enabled
    assert (mail.smtp_host, mail.smtp_port, mail.smtp_timeout) == ("smtp.example.org", 2525, 12)
    assert (mail.smtp_username, mail.smtp_password) == ("deaddrop", "s3cret")
    assert (mail.smtp_starttls, mail.smtp_tls) == (True, False)
    assert mail.mail_from == "Station Berlin <noreply@example.org>"
    assert mail.sender_address == "noreply@example.org"
    assert mail.public_base_url == "https://deaddrop.example.org"
    assert mail.reminder_minutes_before == 45


@pytest.mark.parametrize(
    ("flags", "port"),
    [({}, 25), ({"SMTP_STARTTLS": "yes"}, 587), ({"SMTP_TLS": "1"}, 465)],
)
def test_the_default_port_follows_the_tls_mode(flags: dict[str, str], port: int) -> None:
    assert MailSettings.from_env({"SMTP_HOST": "mx", **flags}).smtp_port == port


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SMTP_STARTTLS": "1", "SMTP_TLS": "1"}, "not both"),
        ({"SMTP_PORT": "smtp"}, "SMTP_PORT must be a whole number"),
        ({"SMTP_PORT": "70000"}, "SMTP_PORT must be between 1 and 65535"),
        ({"REMINDER_MINUTES_BEFORE": "-5"}, "REMINDER_MINUTES_BEFORE must be between"),
        ({"MAIL_FROM": "Dead Drop"}, "MAIL_FROM needs an address"),
        ({"PUBLIC_BASE_URL": "deaddrop.example.org"}, "PUBLIC_BASE_URL must be like"),
    ],
)
def test_bad_values_are_refused_at_start(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MailSettings.from_env({"SMTP_HOST": "mx", **env})


def test_zero_minutes_turns_reminders_off() -> None:
    assert MailSettings.from_env({"REMINDER_MINUTES_BEFORE": "0"}).reminder_minutes_before == 0
