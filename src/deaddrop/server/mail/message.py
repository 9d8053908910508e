"""A composed mail and the `EmailMessage` that carries it: headers, plain text, HTML."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime

from deaddrop.server.mail.settings import MailSettings

_UNSAFE_ID = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True, slots=True)
class Mail:
    """One mail to one person, before it becomes a message."""

    to: str
    """The recipient's address, as stored on the account."""
    subject: str
    """One line."""
    text: str
    """The plain-text body (what every client shows)."""
    html: str | None
    """An escaped HTML alternative, or None."""
    message_id: str
    """The local part of the Message-ID: the same for every attempt of one mail, so that a
    mail sent twice after a crash can be recognised as one."""


def site_url(settings: MailSettings, path: str) -> str:
    """An absolute link into the site for a mail."""
    return settings.public_base_url + path


def one_line(text: str) -> str:
    """Free text made safe for a header: whitespace (newlines too) folded to single spaces."""
    return " ".join(text.split())


def build_message(settings: MailSettings, mail: Mail, now: datetime) -> EmailMessage:
    """The message to hand to SMTP, with the headers an automatic mail should carry."""
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = mail.to
    message["Subject"] = one_line(mail.subject)
    message["Date"] = format_datetime(now)
    domain = settings.sender_address.rsplit("@", 1)[1]
    message["Message-ID"] = f"<{_UNSAFE_ID.sub('-', mail.message_id)}@{domain}>"
    # RFC 3834: no out-of-office or other automatic answers to a robot's mail.
    message["Auto-Submitted"] = "auto-generated"
    # Where to turn these mails off: the profile page (a log-in is needed there).
    message["List-Unsubscribe"] = f"<{site_url(settings, '/account')}>"
    message.set_content(mail.text)
    if mail.html is not None:
        message.add_alternative(mail.html, subtype="html")
    return message
