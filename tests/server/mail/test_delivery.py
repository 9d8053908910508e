"""When sending goes wrong: SMTP refusals retry with a delay, give up in the end, and a crash
between the claim and the send is taken over after the lease, still sending only once."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.mail.deliveries import LEASE, MAX_ATTEMPTS, DeliveryKey, claim_new
from deaddrop.server.mail.models import DIGEST, DROPPED, FAILED, RETRY, SENDING, SENT
from deaddrop.server.mail.settings import MailSettings
from tests.server.mail.helpers import address, ledger, mailer, run_mailer, set_mail
from tests.server.mail.smtp import Inbox, free_port
from tests.server.station.games.helpers import Table, game_row, user_named

SECOND = timedelta(seconds=1)


def test_a_refused_mail_is_retried_after_a_delay_and_then_sent_once(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    alice = table.people[0].username
    set_mail(table.run_db, alice, reminders=False)
    table.pouch()
    inbox.refuse = 1
    sender = mailer(table, mail_settings)
    assert run_mailer(table, sender) == 0
    [row] = ledger(table)
    assert (row.status, row.attempts) == (RETRY, 1)
    assert row.last_error is not None and "451" in row.last_error
    assert row.next_attempt_at == table.clock.now() + timedelta(minutes=1)
    assert run_mailer(table, sender) == 0  # not yet
    table.clock.advance(timedelta(minutes=1))
    assert run_mailer(table, mailer(table, mail_settings, name="m2")) == 1
    assert run_mailer(table, sender) == 0
    [row] = ledger(table)
    assert (row.status, row.attempts, row.claimed_by) == (SENT, 2, "m2")
    assert [m.to for m in inbox.all()] == [address(alice)]


def test_an_unreachable_server_is_retried_until_the_attempts_run_out(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    set_mail(table.run_db, table.people[0].username, reminders=False)
    table.pouch()
    nowhere = replace(mail_settings, smtp_port=free_port(), smtp_timeout=2.0)
    sender = mailer(table, nowhere)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        assert run_mailer(table, sender) == 0
        [row] = ledger(table)
        assert row.attempts == attempt
        table.clock.advance(timedelta(hours=1))
    [row] = ledger(table)
    assert (row.status, row.attempts) == (FAILED, MAX_ATTEMPTS)
    assert row.last_error
    assert run_mailer(table, mailer(table, mail_settings)) == 0  # given up, even when it works
    assert inbox.all() == []


def test_a_crash_between_claim_and_send_is_taken_over_after_the_lease(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    alice = table.people[0].username
    set_mail(table.run_db, alice, reminders=False)
    table.pouch()

    async def claim_and_die(db: AsyncSession) -> None:
        # What a mailer does up to the moment it would talk to SMTP; then the process is gone.
        game, user = await game_row(db, table.game_id), await user_named(db, alice)
        key = DeliveryKey(game.id, 1, user.id, DIGEST)
        assert await claim_new(db, key, name="dead", now=table.clock.now()) is not None

    table.run_db(claim_and_die)
    [row] = ledger(table)
    assert (row.status, row.attempts, row.claimed_by) == (SENDING, 1, "dead")
    survivor = mailer(table, mail_settings, name="alive")
    assert run_mailer(table, survivor) == 0  # the claim is honoured while its lease runs
    table.clock.advance(LEASE - SECOND)
    assert run_mailer(table, survivor) == 0
    table.clock.advance(SECOND)
    assert run_mailer(table, survivor) == 1
    assert run_mailer(table, survivor) == 0
    [row] = ledger(table)
    assert (row.status, row.attempts, row.claimed_by) == (SENT, 2, "alive")
    assert len(inbox.all()) == 1


def test_a_reminder_that_could_not_go_before_the_pouch_is_dropped(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    set_mail(table.run_db, table.people[0].username, digests=False)
    table.clock.set(table.deadline() - timedelta(minutes=30))
    inbox.refuse = 1
    sender = mailer(table, mail_settings)
    assert run_mailer(table, sender) == 0
    assert [row.status for row in ledger(table)] == [RETRY]
    table.pouch()
    assert run_mailer(table, sender) == 0
    [row] = ledger(table)
    assert (row.status, row.last_error) == (DROPPED, "the day is over")
    assert inbox.all() == []
