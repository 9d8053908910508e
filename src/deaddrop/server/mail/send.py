"""Hand a message to the SMTP server with aiosmtplib."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from email.message import EmailMessage

import aiosmtplib

from deaddrop.server.mail.settings import MailSettings

Sender = Callable[[EmailMessage], Awaitable[None]]
"""Sends one message or raises; the mailer takes any exception as "not delivered"."""


def smtp_sender(settings: MailSettings) -> Sender:
    """A sender for the configured SMTP server (one connection per message)."""

    async def send(message: EmailMessage) -> None:
        # Mails are few (a handful per Pouch): a connection each keeps failures independent.
        await aiosmtplib.send(
            message,
            sender=settings.sender_address,
            hostname=settings.smtp_host,
            port=settings.smtp_port,
            username=settings.smtp_username,
            password=settings.smtp_password,
            use_tls=settings.smtp_tls,
            # Explicit, not opportunistic: with SMTP_STARTTLS a server without it is an error.
            start_tls=settings.smtp_starttls,
            timeout=settings.smtp_timeout,
        )

    return send
