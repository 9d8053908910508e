"""Mail test fixtures: a real SMTP server on loopback, mail settings for it, Station tables.

The Station game fixtures (a manual clock, the app without its own runner, a started table
of six) are the games suite's own, imported here.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from aiosmtpd.controller import Controller

from deaddrop.server.mail.settings import MailSettings
from tests.server.mail.smtp import Inbox, free_port
from tests.server.station.games.conftest import (  # noqa: F401 (fixtures)
    app,
    clock,
    host,
    make_players,
    players,
    quick_passwords,
    stranger,
    table,
)


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    """An SMTP server on 127.0.0.1 (a free port), running for the test; its received mail."""
    handler = Inbox()
    # aiosmtpd cannot bind port 0 (it connects to its port to see it up): a port free a moment
    # ago may be taken by then, by another xdist worker's server, so try a few.
    for attempt in range(5):
        controller = Controller(handler, hostname="127.0.0.1", port=free_port())
        try:
            controller.start()
            break
        except OSError:
            if attempt == 4:
                raise
    handler.port = controller.port
    try:
        yield handler
    finally:
        controller.stop()


@pytest.fixture
def mail_settings(inbox: Inbox) -> MailSettings:
    """Mail settings that send to the test's SMTP server."""
    return MailSettings(
        smtp_host="127.0.0.1",
        smtp_port=inbox.port,
        smtp_timeout=5.0,
        mail_from="Dead Drop <noreply@deaddrop.test>",
        public_base_url="https://deaddrop.test",
        reminder_minutes_before=120,
    )
