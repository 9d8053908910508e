"""The profile: display name, optional e-mail, IANA time zone."""

from __future__ import annotations

from tests.server.visitor import Visitor


def _save(visitor: Visitor, **fields: str) -> str:
    values = {"display_name": "Alice", "email": "", "time_zone": "UTC", **fields}
    return visitor.submit("/account", values).text


def test_profile_page_offers_time_zones(alice: Visitor) -> None:
    page = alice.get("/account")
    assert page.status_code == 200
    assert '<option value="Europe/Berlin">Europe/Berlin</option>' in page.text
    assert '<optgroup label="America">' in page.text


def test_save_display_name_email_and_zone(alice: Visitor) -> None:
    text = _save(
        alice, display_name="Alice in Berlin", email="alice@example.org", time_zone="Europe/Berlin"
    )
    assert "Profile saved." in text
    assert 'value="Alice in Berlin"' in text
    assert 'value="alice@example.org"' in text
    assert '<option value="Europe/Berlin" selected>' in text


def test_unknown_time_zone_is_refused_and_the_saved_one_kept(alice: Visitor) -> None:
    _save(alice, time_zone="Asia/Tokyo")
    page = alice.submit("/account", {"display_name": "A", "email": "", "time_zone": "Mars/Olympus"})
    assert page.status_code == 422
    assert "Choose a time zone from the list" in page.text
    assert _saved_zone(alice) == "Asia/Tokyo"


def _saved_zone(visitor: Visitor) -> str:
    """The zone selected in the profile form as the server renders it now."""
    text = visitor.get("/account").text
    end = text.index('" selected>')
    return text[text.rindex('value="', 0, end) + len('value="') : end]


def test_bad_email_is_refused_and_blank_email_is_fine(alice: Visitor) -> None:
    assert "Enter an e-mail address like name@example.org" in _save(alice, email="not-an-address")
    assert "Profile saved." in _save(alice, email="   ")


def test_profile_needs_login(client: Visitor) -> None:
    response = client.http.get("/account", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/login?next=/account"
