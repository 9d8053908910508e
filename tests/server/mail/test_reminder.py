"""The reminder before a deadline: inside the window, once, only to whoever left something."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from deaddrop.engine.station.roles import RINGLEADER
from deaddrop.server.mail.models import REMINDER, SENT
from deaddrop.server.mail.reminder import reminder_window
from deaddrop.server.mail.settings import MailSettings
from tests.server.mail.helpers import address, ledger, mailer, run_mailer, set_mail
from tests.server.mail.smtp import Inbox
from tests.server.station.games.helpers import Table

MINUTE = timedelta(minutes=1)


def _others(table: Table) -> list[int]:
    """Seats other than the Ringleader (who has no Operation to save on Day 1), in order."""
    return [seat for seat, role in enumerate(table.roles) if role != RINGLEADER]


def test_no_reminder_before_the_window_one_inside_it_and_never_a_second(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    seat = _others(table)[0]
    person = table.people[seat]
    set_mail(table.run_db, person.username, digests=False, zone="Asia/Tokyo")
    sender = mailer(table, mail_settings)
    deadline = table.deadline()
    table.clock.set(deadline - 121 * MINUTE)
    assert run_mailer(table, sender) == 0
    table.clock.set(deadline - 119 * MINUTE)
    assert run_mailer(table, sender) == 1
    assert run_mailer(table, sender) == 0
    table.clock.set(deadline - MINUTE)
    assert run_mailer(table, mailer(table, mail_settings, name="m2")) == 0
    [mail] = inbox.all()
    assert mail.to == address(person.username)
    # 21:00 in Berlin (CET) is 05:00 the next morning in Tokyo.
    assert mail.subject == "Operation Gold: Day 1 ends Sun 29 Mar, 05:00 JST"
    text = mail.text()
    assert "Day 1 ends Sun 29 Mar, 05:00 JST, in 1 hour 59 minutes." in text
    assert "- your Operation (without one, you take No action):" in text
    assert f"https://deaddrop.test/games/{table.game_id}/operations" in text
    assert "- your vote for the Tribunal (without one, you count as Abstain):" in text
    assert f"https://deaddrop.test/games/{table.game_id}/floor" in text
    assert mail.message["Auto-Submitted"] == "auto-generated"
    assert [(r.kind, r.day, r.status) for r in ledger(table)] == [(REMINDER, 1, SENT)]
    # The next day has its own reminder.
    table.pouch()
    table.clock.set(table.deadline() - 60 * MINUTE)
    assert run_mailer(table, sender) == 1
    assert [m.subject.split(": ")[1][:5] for m in inbox.all()] == ["Day 1", "Day 2"]


def test_who_saved_both_or_is_done_gets_none_and_the_rest_hear_what_is_missing(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    both, done, vote_only, nothing = (table.people[s] for s in _others(table)[:4])
    leader = table.people[table.seat_with(RINGLEADER)]
    for person in (both, done, vote_only, nothing, leader):
        set_mail(table.run_db, person.username, digests=False)
    target = table.codenames[table.seat_with(RINGLEADER)]
    for person in (both, vote_only):
        assert person.form(table.path("/vote"), {"vote": target}).is_redirect
    assert both.form(table.path("/operation"), {"target": target}).is_redirect
    assert done.form(table.path("/done"), {"done": "yes"}).is_redirect
    table.clock.set(table.deadline() - 30 * MINUTE)
    assert run_mailer(table, mailer(table, mail_settings)) == 3
    assert not inbox.to(address(both.username))
    assert not inbox.to(address(done.username))
    [partial] = inbox.to(address(vote_only.username))
    assert "your Operation" in partial.text() and "your vote" not in partial.text()
    [full] = inbox.to(address(nothing.username))
    assert "your Operation" in full.text() and "your vote" in full.text()
    # The Ringleader has no Operation to save on Day 1 (S10): only the vote is missing.
    [ring] = inbox.to(address(leader.username))
    assert "your Operation" not in ring.text() and "your vote" in ring.text()


def test_a_burned_player_gets_no_reminder(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    seat = _others(table)[0]
    set_mail(table.run_db, table.people[seat].username, digests=False)
    for voter in table.people:
        voter.form(table.path("/vote"), {"vote": table.codenames[seat]})
    table.pouch()
    assert not table.state().alive[seat]
    table.clock.set(table.deadline() - 30 * MINUTE)
    assert run_mailer(table, mailer(table, mail_settings)) == 0
    assert inbox.all() == []


def test_a_paused_game_sends_no_reminder_until_it_runs_again(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    person = table.people[_others(table)[0]]
    set_mail(table.run_db, person.username, digests=False)
    deadline = table.deadline()
    table.clock.set(deadline - 90 * MINUTE)
    assert table.host.form(table.path("/host/pause")).is_redirect
    assert table.game().status == "paused"
    sender = mailer(table, mail_settings)
    assert run_mailer(table, sender) == 0
    table.clock.advance(timedelta(hours=5))
    assert run_mailer(table, sender) == 0
    assert table.host.form(table.path("/host/resume")).is_redirect
    assert run_mailer(table, sender) == 1  # 90 minutes left again: inside the window
    assert len(inbox.all()) == 1


def test_reminders_off_with_zero_minutes_and_the_window_is_at_most_half_a_day(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    assert reminder_window(mail_settings, 24 * 60) == timedelta(minutes=120)
    assert reminder_window(mail_settings, 10) == timedelta(minutes=5)
    for person in table.people:
        set_mail(table.run_db, person.username, digests=False)
    table.clock.set(table.deadline() - 30 * MINUTE)
    off = replace(mail_settings, reminder_minutes_before=0)
    assert run_mailer(table, mailer(table, off)) == 0
    assert inbox.all() == []
