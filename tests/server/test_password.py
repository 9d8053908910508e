"""Changing the password: the old one is required, and other sessions end."""

from __future__ import annotations

from collections.abc import Callable

from tests.server.visitor import Visitor

NEW = "a brand new passphrase"


def _change(visitor: Visitor, old: str, new: str = NEW, again: str | None = None) -> str:
    page = visitor.submit(
        "/account/password",
        {"old_password": old, "new_password": new, "new_password_again": again or new},
    )
    return page.text


def test_change_password_then_log_in_with_the_new_one(alice: Visitor) -> None:
    assert "Password changed." in _change(alice, alice.password)
    assert alice.is_logged_in()
    alice.log_out()
    assert alice.log_in(password=NEW).status_code == 200
    assert alice.is_logged_in()


def test_old_password_stops_working(alice: Visitor, new_visitor: Callable[[], Visitor]) -> None:
    old = alice.password
    _change(alice, old)
    other = new_visitor()
    page = other.log_in("alice", old)
    assert "Wrong username or password." in page.text


def test_wrong_current_password_is_refused(alice: Visitor) -> None:
    text = _change(alice, "not my password")
    assert "That is not your current password." in text
    alice.log_out()
    assert alice.log_in().status_code == 200
    assert alice.is_logged_in()


def test_weak_or_mismatched_new_password_is_refused(alice: Visitor) -> None:
    assert "Use at least 10 characters for the password." in _change(alice, alice.password, "short")
    assert "The two new passwords differ." in _change(alice, alice.password, NEW, NEW + "x")


def test_change_logs_out_other_sessions(alice: Visitor, new_visitor: Callable[[], Visitor]) -> None:
    phone = new_visitor()
    phone.log_in("alice", alice.password)
    assert phone.is_logged_in()
    _change(alice, alice.password)
    assert alice.is_logged_in()
    assert not phone.is_logged_in()


def test_password_page_needs_login(client: Visitor) -> None:
    response = client.http.get("/account/password", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/login?next=/account/password"


def test_a_common_new_password_is_refused_saying_why(alice: Visitor) -> None:
    text = _change(alice, alice.password, "0123456789")
    assert "This password is too easy to guess" in text
    assert "Sequences like" in text
    assert alice.log_in(password=alice.password).status_code == 200  # unchanged
