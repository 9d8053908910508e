"""A friend without an account opens the invite: they see what and whose game it is, and
signing up (or logging in) brings them back to it."""

from __future__ import annotations

from collections.abc import Callable

from tests.server.station.games.helpers import Person, invite_token, open_lobby
from tests.server.visitor import PASSWORD, Visitor, csrf_token_in


def test_a_guest_sees_the_game_and_its_host_on_the_invite(
    host: Person, players: list[Person], client: Visitor
) -> None:
    game_id = open_lobby(host, "Operation <Gold>")
    token = invite_token(host, game_id)
    page = client.http.get(f"/join/{token}", follow_redirects=False)
    assert page.status_code == 200
    assert "Operation &lt;Gold&gt;" in page.text
    assert "Alice Liddell" in page.text  # the host
    assert "1 player has joined so far" in page.text
    assert "6 to 10 players" in page.text
    assert f'href="/signup?next=/join/{token}"' in page.text
    assert f'href="/login?next=/join/{token}"' in page.text
    assert "Join the game" not in page.text  # that button needs an account


def test_signing_up_from_the_invite_leads_back_to_it(
    host: Person, new_visitor: Callable[[], Visitor]
) -> None:
    game_id = open_lobby(host)
    token = invite_token(host, game_id)
    friend = new_visitor()
    form = friend.get(f"/signup?next=/join/{token}")
    assert f'name="next" value="/join/{token}"' in form.text
    assert f'href="/login?next=/join/{token}"' in form.text
    answer = friend.http.post(
        "/signup",
        data={
            "username": "newcomer",
            "display_name": "New Comer",
            "password": PASSWORD,
            "password_again": PASSWORD,
            "next": f"/join/{token}",
            "_csrf_token": csrf_token_in(form.text),
        },
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/join/{token}"
    confirmation = friend.get(f"/join/{token}")
    assert "Join the game" in confirmation.text
    joined = friend.http.post(
        f"/join/{token}",
        data={"_csrf_token": csrf_token_in(confirmation.text)},
        follow_redirects=False,
    )
    assert joined.headers["location"] == f"/games/{game_id}/lobby"


def test_a_refused_sign_up_keeps_where_to_go_next(client: Visitor) -> None:
    page = client.submit(
        "/signup?next=/join/abc",
        {"username": "x", "display_name": "X", "password": "p", "password_again": "p",
         "next": "/join/abc"},
        action="/signup",
    )  # fmt: skip
    assert page.status_code == 422
    assert 'name="next" value="/join/abc"' in page.text


def test_the_log_in_page_sign_up_link_carries_next(client: Visitor) -> None:
    page = client.get("/login?next=/join/abc")
    assert 'href="/signup?next=/join/abc"' in page.text


def test_sign_up_never_sends_anyone_to_another_site(new_visitor: Callable[[], Visitor]) -> None:
    for number, elsewhere in enumerate(
        ("//evil.example/", "https://evil.example/", "/\\evil.example", "/\t/evil.example",
         "evil.example", "/\n/evil.example", " //evil.example")
    ):  # fmt: skip
        visitor = new_visitor()
        form = visitor.get("/signup", params={"next": elsewhere})
        assert "evil.example" not in form.text
        answer = visitor.http.post(
            "/signup",
            data={
                "username": f"visitor{number}",
                "display_name": "V",
                "password": PASSWORD,
                "password_again": PASSWORD,
                "next": elsewhere,
                "_csrf_token": csrf_token_in(form.text),
            },
            follow_redirects=False,
        )
        assert answer.status_code == 303, elsewhere
        assert answer.headers["location"] == "/", elsewhere


def test_the_header_log_in_and_sign_up_links_lead_back_to_the_page(
    host: Person, client: Visitor
) -> None:
    game_id = open_lobby(host)
    token = invite_token(host, game_id)
    page = client.http.get(f"/join/{token}", follow_redirects=False)
    header = page.text.split("</header>")[0]
    assert f'<a href="/login?next=/join/{token}">Log in</a>' in header
    assert f'<a href="/signup?next=/join/{token}">Sign up</a>' in header
    home = client.http.get("/").text.split("</header>")[0]
    assert '<a href="/login">Log in</a>' in home  # nowhere to come back to from the home page
