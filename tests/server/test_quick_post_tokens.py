"""A quick post's CSRF check remembers the tokens whose signature held, and only those
(server/quick_posts.py `_KnownTokens`): the same answers as Litestar's own check, every time."""

from __future__ import annotations

from litestar.config.csrf import CSRFConfig
from litestar.middleware.csrf import CSRFMiddleware, generate_csrf_token

from deaddrop.server.quick_posts import _KnownTokens

SECRET = "a-secret-of-the-tests-long-enough-for-an-hmac"


async def _app(*_args: object) -> None:
    """An app the checks never call."""


def test_a_remembered_token_answers_as_litestars_check_every_time() -> None:
    config = CSRFConfig(secret=SECRET)
    known, litestar = _KnownTokens(_app, config), CSRFMiddleware(_app, config)
    token, other = generate_csrf_token(SECRET), generate_csrf_token(SECRET)
    forged = token[:-1] + ("0" if token[-1] != "0" else "1")
    signed_elsewhere = generate_csrf_token("another-secret-long-enough-for-an-hmac-too")
    pairs = [(token, token), (token, other), (forged, token), (token, forged)]
    pairs += [(signed_elsewhere, signed_elsewhere), ("", token), ("short", "short")]
    for _ in range(2):  # the second time from memory where the first remembered
        for header, cookie in pairs:
            expected = litestar._csrf_tokens_match(header, cookie)
            assert known._csrf_tokens_match(header, cookie) == expected, (header, cookie)
    assert set(known._signed._entries) == {token, other}  # a forged token is never remembered


def test_the_remembered_tokens_are_bounded() -> None:
    known = _KnownTokens(_app, CSRFConfig(secret=SECRET))
    for _ in range(_KnownTokens.KEPT + 10):
        token = generate_csrf_token(SECRET)
        assert known._csrf_tokens_match(token, token)
    assert 0 < len(known._signed._entries) <= _KnownTokens.KEPT
