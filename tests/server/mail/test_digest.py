"""The digest when a Pouch departs: to the opted-in with an address, once, public content."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.engine.station.roles import FORGER, RINGLEADER
from deaddrop.server.mail.mailer import Mailer
from deaddrop.server.mail.models import DIGEST, SENT
from deaddrop.server.mail.settings import MailSettings
from tests.server.mail.helpers import address, ledger, mailer, run_mailer, set_mail, vote_all
from tests.server.mail.smtp import Inbox
from tests.server.station.games.helpers import Table


def test_a_digest_goes_to_the_opted_in_with_an_address_and_to_nobody_else(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    alice, bob, carol, dave, erin, frank = (p.username for p in table.people)
    set_mail(table.run_db, alice, zone="America/New_York")
    set_mail(table.run_db, bob, email=None)  # ticked, but no address
    set_mail(table.run_db, carol, digests=False)  # address, but no digests
    set_mail(table.run_db, dave, digests=True, reminders=False)
    # erin and frank never touched their settings
    sender = mailer(table, mail_settings)
    assert run_mailer(table, sender) == 0  # no Pouch yet: nothing to tell
    assert table.pouch() == 1
    assert run_mailer(table, sender) == 2
    assert sorted(m.to for m in inbox.all()) == [address(alice), address(dave)]
    assert not inbox.to(address(carol)) and not inbox.to(address(erin))
    assert [(r.kind, r.day, r.status, r.attempts) for r in ledger(table)] == [
        (DIGEST, 1, SENT, 1),
        (DIGEST, 1, SENT, 1),
    ]
    del bob, frank


def test_the_digest_holds_the_cable_a_dossier_link_and_the_next_deadline_in_my_zone(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    alice = table.people[0].username
    set_mail(table.run_db, alice, zone="America/New_York")
    leader = table.seat_with(RINGLEADER)
    last_words = "<b>Trust</b> nobody & burn this."
    table.people[leader].form(table.path("/final-cable"), {"text": last_words})
    vote_all(table, leader)
    table.pouch()
    run_mailer(table, mailer(table, mail_settings))
    [mail] = inbox.to(address(alice))
    text = mail.text()
    assert mail.subject == "Operation Gold: the Morning Cable of Day 1"
    assert mail.sender == "noreply@deaddrop.test"
    assert mail.message["From"] == "Dead Drop <noreply@deaddrop.test>"
    assert mail.message["Auto-Submitted"] == "auto-generated"
    assert mail.message["List-Unsubscribe"] == "<https://deaddrop.test/account>"
    assert mail.message["Date"] is not None
    game = table.game()
    assert mail.message["Message-ID"] == (
        f"<digest.{table.game_id}.d1.u{_user_id(table, alice)}@deaddrop.test>"
    )
    assert f"{table.codenames[leader]} was recalled by the Tribunal. Side: Ring." in text
    assert f"The Tribunal recalled {table.codenames[leader]}." in text
    assert f"https://deaddrop.test/games/{table.game_id}/dossier" in text
    # Day 2 ends 21:00 in Berlin, which is 15:00 in New York (summer time on both sides).
    assert game.deadline is not None
    assert "The next Pouch departs Sun 29 Mar, 15:00 EDT." in text
    assert f"  > {last_words}" in text  # a published Final Cable is public (S23)
    html_part = mail.message.get_body(preferencelist=("html",))
    assert html_part is not None
    html = str(html_part.get_content())
    assert "Dossier</a>" in html
    assert "&lt;b&gt;Trust&lt;/b&gt; nobody &amp; burn this." in html and "<b>Trust" not in html


def test_each_digest_goes_once_over_passes_and_concurrent_mailers(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    for person in table.people:
        set_mail(table.run_db, person.username)
    first, second = mailer(table, mail_settings, name="m1"), mailer(table, mail_settings, name="m2")
    table.pouch()

    async def together(_db: AsyncSession) -> list[int]:
        return list(await asyncio.gather(first.run_once(), second.run_once()))

    assert sum(table.run_db(together)) == 6
    assert run_mailer(table, first) == 0 and run_mailer(table, second) == 0
    assert sorted(m.to for m in inbox.all()) == sorted(address(p.username) for p in table.people)
    # The next day's Pouch is news again, once.
    table.pouch()
    assert run_mailer(table, Mailer(table.app.state.sessionmaker, table.clock, mail_settings)) == 6
    assert run_mailer(table, first) == 0
    assert len(inbox.all()) == 12
    assert {r.day for r in ledger(table)} == {1, 2}


def test_after_downtime_only_the_newest_pouch_is_mailed_and_old_ones_never(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    alice = table.people[0].username
    set_mail(table.run_db, alice)
    table.pouch()
    table.pouch()  # two Pouches while no mailer ran
    run_mailer(table, mailer(table, mail_settings))
    assert [m.subject for m in inbox.all()] == ["Operation Gold: the Morning Cable of Day 2"]
    # Someone who opts in long after a Pouch does not get it.
    bob = table.people[1].username
    table.clock.advance(timedelta(hours=13))
    set_mail(table.run_db, bob)
    assert run_mailer(table, mailer(table, mail_settings)) == 0


def test_the_digest_of_the_last_pouch_says_who_won(
    table: Table, inbox: Inbox, mail_settings: MailSettings
) -> None:
    for person in table.people:
        set_mail(table.run_db, person.username)
    vote_all(table, table.seat_with(RINGLEADER))
    table.pouch()
    vote_all(table, table.seat_with(FORGER))
    table.pouch()
    assert table.state().over
    run_mailer(table, mailer(table, mail_settings))
    last = [m for m in inbox.all() if "Day 2" in m.subject]
    assert len(last) == 6
    for mail in last:
        assert mail.subject == "Operation Gold: the game is over after the Pouch of Day 2"
        text = mail.text()
        assert "The Station wins." in text
        assert "Every role is revealed on the Cable" in text
        assert "next Pouch" not in text


def _user_id(table: Table, username: str) -> int:
    from tests.server.station.games.helpers import user_named

    async def read(db: AsyncSession) -> int:
        return (await user_named(db, username)).id

    found: int = table.run_db(read)
    return found
