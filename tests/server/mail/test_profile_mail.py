"""The profile form saves the mail preferences, and asks for an address when one is ticked."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from deaddrop.server.accounts.models import User
from tests.server.station.games.helpers import user_named
from tests.server.visitor import Visitor

RunDB = Callable[[Callable[[AsyncSession], Awaitable[Any]]], Any]


def _save(visitor: Visitor, **fields: str) -> Any:
    values = {"display_name": "Alice", "email": "", "time_zone": "UTC", **fields}
    return visitor.submit("/account", values)


def _stored(run_db: RunDB, username: str) -> User:
    async def read(db: AsyncSession) -> User:
        return await user_named(db, username)

    user: User = run_db(read)
    return user


def test_the_profile_offers_both_mails_unticked_and_says_an_address_is_needed(
    alice: Visitor,
) -> None:
    page = alice.get("/account").text
    assert 'name="mail_digests" type="checkbox" value="yes">' in page
    assert 'name="mail_reminders" type="checkbox" value="yes">' in page
    assert "Both need the e-mail address above." in page
    assert "This server sends no mail at the moment" in page  # the tests run without SMTP


def test_ticking_both_saves_them_and_unticking_turns_them_off(
    alice: Visitor, run_db: RunDB
) -> None:
    saved = _save(alice, email="alice@example.org", mail_digests="yes", mail_reminders="yes")
    assert saved.status_code == 200 and "Profile saved." in saved.text
    assert 'name="mail_digests" type="checkbox" value="yes" checked>' in saved.text
    assert 'name="mail_reminders" type="checkbox" value="yes" checked>' in saved.text
    user = _stored(run_db, "alice")
    assert (user.email, user.mail_digests, user.mail_reminders) == ("alice@example.org", True, True)
    _save(alice, email="alice@example.org", mail_reminders="yes")
    user = _stored(run_db, "alice")
    assert (user.mail_digests, user.mail_reminders) == (False, True)
    _save(alice, email="alice@example.org")
    user = _stored(run_db, "alice")
    assert (user.mail_digests, user.mail_reminders) == (False, False)


def test_a_ticked_mail_without_an_address_is_refused_and_nothing_changes(
    alice: Visitor, run_db: RunDB
) -> None:
    refused = _save(alice, email=" ", mail_digests="yes")
    assert refused.status_code == 422
    assert "Enter an e-mail address to get the mails you ticked, or untick them." in refused.text
    assert 'name="mail_digests" type="checkbox" value="yes" checked>' in refused.text
    user = _stored(run_db, "alice")
    assert (user.email, user.mail_digests) == (None, False)
