"""Sign up: a new account is logged in at once; refusals say what to fix."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from sqlalchemy import select

from deaddrop.server.accounts.models import User
from tests.server.visitor import PASSWORD, Visitor


def _form(**overrides: str) -> dict[str, str]:
    fields = {
        "username": "carol",
        "display_name": "Carol",
        "password": PASSWORD,
        "password_again": PASSWORD,
    }
    return {**fields, **overrides}


def test_sign_up_logs_in_and_greets(client: Visitor) -> None:
    page = client.sign_up("carol", "Carol Danvers")
    assert page.status_code == 200
    assert str(page.url).endswith("/")
    assert "Welcome to the Station, Carol Danvers." in page.text
    assert client.is_logged_in()


def test_sign_up_stores_an_argon2_hash_and_aware_utc_times(client: Visitor, run_db: Any) -> None:
    client.sign_up("carol")
    user = run_db(lambda db: db.scalar(select(User).where(User.username == "carol")))
    assert user.password_hash.startswith("$argon2id$")
    assert PASSWORD not in user.password_hash
    assert user.created_at.tzinfo is UTC
    assert user.time_zone == "UTC"


def test_username_is_case_insensitive_and_duplicates_are_refused(
    alice: Visitor, client: Visitor
) -> None:
    page = client.submit("/signup", _form(username="ALICE"))
    assert page.status_code == 422
    assert "That username is taken. Choose another." in page.text
    assert not client.is_logged_in()


def test_short_password_is_refused_with_its_rule(client: Visitor) -> None:
    page = client.submit("/signup", _form(password="short", password_again="short"))
    assert page.status_code == 422
    assert "Use at least 10 characters for the password." in page.text
    assert 'aria-invalid="true"' in page.text
    assert not client.is_logged_in()


def test_password_equal_to_username_is_refused(client: Visitor) -> None:
    page = client.submit(
        "/signup", _form(username="carolcarol", password="CarolCarol", password_again="CarolCarol")
    )
    assert page.status_code == 422
    assert "must not be the username" in page.text


def test_mismatched_passwords_are_refused(client: Visitor) -> None:
    page = client.submit("/signup", _form(password_again=PASSWORD + "!"))
    assert page.status_code == 422
    assert "The two passwords differ." in page.text


def test_bad_username_and_missing_display_name_are_both_reported(client: Visitor) -> None:
    page = client.submit("/signup", _form(username="no spaces!", display_name="   "))
    assert page.status_code == 422
    assert "Use only letters a–z, digits" in page.text
    assert "Enter a display name." in page.text
    # The form keeps what was typed (escaped), except passwords.
    assert 'value="no spaces!"' in page.text
    assert PASSWORD not in page.text


def test_over_long_fields_are_refused(client: Visitor) -> None:
    page = client.submit("/signup", _form(username="a" * 31, display_name="D" * 51))
    assert page.status_code == 422
    assert "Use 3 to 30 characters for the username." in page.text
    assert "Use at most 50 characters for the display name." in page.text


def test_logged_in_person_is_sent_home_from_sign_up(alice: Visitor) -> None:
    response = alice.http.get("/signup", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/"


def test_common_and_trivial_passwords_are_refused_saying_why(client: Visitor) -> None:
    for weak, why in (
        ("0123456789", "Sequences like"),
        (" " * 10, "Repeats like"),
        ("password12", "This is a very common password."),
    ):
        page = client.submit("/signup", _form(password=weak, password_again=weak))
        assert page.status_code == 422, weak
        assert "This password is too easy to guess" in page.text, weak
        assert why in page.text, weak
        assert "Add another word or two" in page.text, weak
    assert not client.is_logged_in()


def test_every_field_problem_is_shown_in_one_answer(alice: Visitor, client: Visitor) -> None:
    page = client.submit(
        "/signup",
        {"username": "Alice", "display_name": " ", "password": "0123456789",
         "password_again": "0123456788"},
    )  # fmt: skip
    assert page.status_code == 422
    for message in (
        "That username is taken. Choose another.",
        "Enter a display name.",
        "This password is too easy to guess",
        "The two passwords differ.",
    ):
        assert message in page.text, message
    summary = page.text.split('class="error-summary"', 1)[1].split("</div>", 1)[0]
    assert summary.count("<li>") == 4
    # In the order of the form's fields.
    assert summary.index("Username:") < summary.index("Display name:")
    assert summary.index("Display name:") < summary.index("Password:")
    assert summary.index("Password:") < summary.index("Password again:")


def test_a_bad_username_and_a_short_password_are_both_reported(client: Visitor) -> None:
    page = client.submit("/signup", _form(username="x", password="short", password_again="shorter"))
    assert page.status_code == 422
    for message in (
        "Use 3 to 30 characters for the username.",
        "Use at least 10 characters for the password.",
        "The two passwords differ.",
    ):
        assert message in page.text, message
