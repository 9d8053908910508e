"""A real SMTP server on loopback for the mail tests: aiosmtpd, collecting what it receives."""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any, cast


@dataclass(frozen=True)
class Received:
    """One message as the SMTP server got it."""

    sender: str
    """The envelope sender (MAIL FROM)."""
    recipients: tuple[str, ...]
    """The envelope recipients (RCPT TO)."""
    message: EmailMessage
    """The parsed message."""

    @property
    def to(self) -> str:
        """The To header."""
        return str(self.message["To"])

    @property
    def subject(self) -> str:
        """The Subject header."""
        return str(self.message["Subject"])

    def text(self) -> str:
        """The plain-text body."""
        part = self.message.get_body(preferencelist=("plain",))
        assert part is not None
        return str(cast(EmailMessage, part).get_content())

    def everything(self) -> str:
        """Every header and every decoded part, for leak checks."""
        parts = [f"{name}: {value}" for name, value in self.message.items()]
        for part in self.message.walk():
            if not part.is_multipart():
                parts.append(str(part.get_content()))
        return "\n".join(parts)


@dataclass
class Inbox:
    """An aiosmtpd handler that keeps every message, or refuses the next `refuse` ones."""

    messages: list[Received] = field(default_factory=list)
    refuse: int = 0
    """How many of the next messages to refuse with a temporary failure (451)."""
    port: int = 0
    """Where the server listens on 127.0.0.1 (set when it starts)."""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        """aiosmtpd's hook for a complete message."""
        with self._lock:
            if self.refuse > 0:
                self.refuse -= 1
                return "451 4.3.0 Mailbox busy, try again later"
            parsed = message_from_bytes(envelope.content, policy=policy.default)
            assert isinstance(parsed, EmailMessage)
            self.messages.append(Received(envelope.mail_from, tuple(envelope.rcpt_tos), parsed))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[Received]:
        """The messages to one address."""
        with self._lock:
            return [m for m in self.messages if address in m.recipients]

    def all(self) -> list[Received]:
        """Every message so far."""
        with self._lock:
            return list(self.messages)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
