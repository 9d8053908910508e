"""Log in and out, and the session that carries a login."""

from __future__ import annotations

from collections.abc import Callable

from tests.server.visitor import Visitor


def test_log_out_then_log_in_again(alice: Visitor) -> None:
    page = alice.log_out()
    assert "Logged out." in page.text
    assert not alice.is_logged_in()
    page = alice.log_in()
    assert "Logged in as Alice Liddell." in page.text
    assert alice.is_logged_in()


def test_username_is_matched_case_insensitively(alice: Visitor) -> None:
    alice.log_out()
    alice.log_in(username="  Alice ")
    assert alice.is_logged_in()


def test_wrong_password_is_refused(alice: Visitor, new_visitor: Callable[[], Visitor]) -> None:
    stranger = new_visitor()
    page = stranger.log_in("alice", "not the password")
    assert page.status_code == 422
    assert "Wrong username or password." in page.text
    assert not stranger.is_logged_in()


def test_unknown_username_gets_the_same_answer(client: Visitor) -> None:
    page = client.log_in("nobody", "whatever password")
    assert page.status_code == 422
    assert "Wrong username or password." in page.text


def test_log_in_returns_to_the_page_asked_for(alice: Visitor) -> None:
    alice.log_out()
    first = alice.http.get("/account", follow_redirects=False)
    assert first.status_code == 303
    assert first.headers["location"] == "/login?next=/account"
    page = alice.submit(
        "/login?next=/account",
        {"username": "alice", "password": alice.password, "next": "/account"},
        action="/login",
    )
    assert str(page.url).endswith("/account")
    assert "Your profile" in page.text


def test_log_in_never_redirects_to_another_site(alice: Visitor) -> None:
    alice.log_out()
    response = alice.submit(
        "/login",
        {"username": "alice", "password": alice.password, "next": "//evil.example/"},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/"


def test_log_in_moves_the_session_to_a_fresh_id(alice: Visitor) -> None:
    alice.log_out()
    # A session planted before log-in (say by someone who set this cookie) must not be reused.
    alice.http.cookies.set("deaddrop_session", "planted-by-an-attacker", domain="testserver.local")
    alice.log_in()
    assert alice.http.cookies.get("deaddrop_session") not in (None, "planted-by-an-attacker")
    assert alice.is_logged_in()


def test_guests_get_no_session_cookie(client: Visitor) -> None:
    client.get("/")
    client.get("/how-to-play")
    assert client.http.cookies.get("deaddrop_session") is None


def test_logging_out_ends_the_session_on_the_server(alice: Visitor) -> None:
    stolen = alice.http.cookies.get("deaddrop_session")
    assert stolen
    alice.log_out()
    alice.http.cookies.set("deaddrop_session", stolen, domain="testserver.local")
    assert not alice.is_logged_in()


def test_log_out_needs_a_post(alice: Visitor) -> None:
    assert alice.get("/logout").status_code == 405
    assert alice.is_logged_in()
