"""The mailer where it runs: in the app's lifespan when SMTP is set, and in `deaddrop worker`."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.app import create_app
from deaddrop.server.mail.mailer import Mailer
from deaddrop.server.mail.settings import MailSettings
from deaddrop.server.settings import Settings
from deaddrop.server.testing.clocks import ManualClock
from tests.server.mail.helpers import address, set_mail
from tests.server.mail.smtp import Inbox, Received
from tests.server.station.games.helpers import Table, game_row


@pytest.fixture
def app(settings: Settings, clock: ManualClock, mail_settings: MailSettings) -> Litestar:
    """The app with SMTP configured: its lifespan starts a mailer (the Pouch runner stays off)."""
    return create_app(replace(settings, mail=mail_settings), clock=clock, pouch_runner=False)


def _wait_for(inbox: Inbox, count: int, seconds: float = 10.0) -> list[Received]:
    end = time.monotonic() + seconds
    while len(inbox.all()) < count and time.monotonic() < end:
        time.sleep(0.05)
    return inbox.all()


def test_the_app_runs_a_mailer_that_sends_the_digest_by_itself(table: Table, inbox: Inbox) -> None:
    mailer = table.app.state.mailer
    assert isinstance(mailer, Mailer)
    alice = table.people[0].username
    set_mail(table.run_db, alice, reminders=False)
    table.pouch()

    async def wake(_db: AsyncSession) -> None:
        mailer.wake()  # what the next poll would do, without waiting for it

    table.run_db(wake)
    [mail] = _wait_for(inbox, 1)
    assert mail.to == address(alice)
    assert "Morning Cable of Day 1" in mail.subject


def test_without_smtp_the_app_runs_no_mailer(settings: Settings) -> None:
    with TestClient(create_app(settings, pouch_runner=False)) as client:
        assert getattr(client.app.state, "mailer", None) is None


def test_deaddrop_worker_once_resolves_the_pouch_and_sends_its_digest(
    table: Table,
    inbox: Inbox,
    settings: Settings,
    mail_settings: MailSettings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    from deaddrop.cli import main

    alice = table.people[0].username
    set_mail(table.run_db, alice, reminders=False)

    async def overdue(db: AsyncSession) -> None:
        # The worker reads the machine's clock: make today's Pouch due by it.
        game = await game_row(db, table.game_id)
        game.deadline = datetime.now(UTC) - timedelta(minutes=1)
        await db.commit()

    table.run_db(overdue)
    for name, value in {
        "DATABASE_URL": settings.database_url,
        "SECRET_KEY": settings.secret_key,
        "DEADDROP_VAR_DIR": str(tmp_path),
        "DATABASE_SCHEMA": settings.database_schema or "",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(mail_settings.smtp_port),
        "MAIL_FROM": "Dead Drop <noreply@deaddrop.test>",
        "PUBLIC_BASE_URL": "https://deaddrop.test",
    }.items():
        monkeypatch.setenv(name, value)
    assert main(["worker", "--once"]) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == ["Resolved 1 Pouch.", "Sent 1 mail."]
    [mail] = inbox.all()
    assert mail.to == address(alice)
    assert main(["worker", "--once"]) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == ["Resolved 0 Pouches.", "Sent 0 mails."]
    assert len(inbox.all()) == 1
