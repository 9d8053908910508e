"""Refused and malformed requests: a 4xx with a message a person can act on, never a 500."""

from __future__ import annotations

from tests.server.visitor import PASSWORD, Visitor, csrf_token_in

SIGN_UP = {
    "username": "carol",
    "display_name": "Carol",
    "password": PASSWORD,
    "password_again": PASSWORD,
}


def _token(visitor: Visitor) -> str:
    return csrf_token_in(visitor.get("/signup").text)


def test_form_without_csrf_token_is_refused(client: Visitor) -> None:
    client.get("/signup")
    response = client.http.post("/signup", data=SIGN_UP)
    assert response.status_code == 403
    assert "This form expired or did not come from this site" in response.text
    assert not client.is_logged_in()


def test_form_with_a_forged_csrf_token_is_refused(client: Visitor) -> None:
    client.get("/signup")
    response = client.http.post("/signup", data={**SIGN_UP, "_csrf_token": "0" * 128})
    assert response.status_code == 403


def test_csrf_token_from_another_browser_is_refused(client: Visitor, alice: Visitor) -> None:
    # Alice's token is valid, but not paired with the guest's cookie.
    client.get("/signup")
    response = client.http.post("/signup", data={**SIGN_UP, "_csrf_token": _token(alice)})
    assert response.status_code == 403


def test_logging_out_needs_the_token_too(alice: Visitor) -> None:
    response = alice.http.post("/logout")
    assert response.status_code == 403
    assert alice.is_logged_in()


def test_missing_fields_re_render_the_form(client: Visitor) -> None:
    response = client.http.post("/signup", data={"_csrf_token": _token(client)})
    assert response.status_code == 422
    assert "Enter a username." in response.text


def test_repeated_field_is_a_400(client: Visitor) -> None:
    body = f"username=a&username=b&_csrf_token={_token(client)}"
    response = client.http.post(
        "/signup",
        content=body,
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 400
    assert "some fields were missing or malformed" in response.text


def test_invalid_bytes_in_a_form_are_a_4xx(client: Visitor) -> None:
    # Undecodable bytes become replacement characters, which the username check refuses.
    body = b"username=%ff%fe&display_name=\xff\xfe&_csrf_token=" + _token(client).encode()
    response = client.http.post(
        "/signup",
        content=body,
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert 400 <= response.status_code < 500


def test_json_posted_to_a_form_is_a_4xx(client: Visitor) -> None:
    # A form endpoint reads only form encoding: JSON leaves every field empty.
    response = client.http.post(
        "/signup",
        json=SIGN_UP,
        headers={"x-csrftoken": _token(client)},
    )
    assert 400 <= response.status_code < 500


def test_oversized_body_is_refused(client: Visitor) -> None:
    token = _token(client)
    response = client.http.post(
        "/signup", data={**SIGN_UP, "display_name": "x" * 2_000_000, "_csrf_token": token}
    )
    assert response.status_code == 413


def test_unknown_page_is_a_themed_404(client: Visitor) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert "text/html" in response.headers["content-type"]
    assert "Not on file" in response.text


def test_unknown_api_path_is_a_json_404(client: Visitor) -> None:
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.json() == {"status_code": 404, "detail": "Not Found"}


def test_wrong_method_is_a_405_page(client: Visitor) -> None:
    response = client.http.put("/", headers={"x-csrftoken": _token(client)})
    assert response.status_code == 405
    assert "Wrong procedure" in response.text


def test_display_name_is_escaped_everywhere(client: Visitor) -> None:
    client.sign_up("mallory", '<script>alert("x")</script>')
    for path in ("/", "/account", "/how-to-play"):
        text = client.get(path).text
        assert '<script>alert("x")</script>' not in text
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in client.get("/").text
