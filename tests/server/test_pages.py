"""The home page, How to play, static files, the health check."""

from __future__ import annotations

from pathlib import Path

from tests.server.visitor import Visitor


def test_guest_home_explains_and_links(client: Visitor) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "Two spy games" in page.text
    for link in ('href="/signup"', 'href="/login"', 'href="/how-to-play"'):
        assert link in page.text


def test_user_home_shows_my_games_honestly_empty(alice: Visitor) -> None:
    page = alice.get("/")
    assert "My games" in page.text
    assert "No games yet." in page.text
    assert "Alice Liddell" in page.text


def test_how_to_play_covers_rules_roles_order_and_glossary(client: Visitor) -> None:
    page = client.get("/how-to-play")
    assert page.status_code == 200
    for role in (
        "Analyst", "Watcher", "Shadow", "Safehouse Keeper", "Interrogator", "Field Agent",
        "Ringleader", "Forger", "Honeytrap", "Defector",
    ):  # fmt: skip
        assert f"<dt>{role}</dt>" in page.text
    for step in ("Lock.", "Detain.", "Distract.", "Frame.", "Shelter.", "Liquidation."):
        assert step in page.text
    assert (
        page.text.index("Detain.")
        < page.text.index("Liquidation.")
        < page.text.index("Tribunal.</strong> The votes")
    )
    for term in ("The Pouch", "Morning Cable", "Final Cable", "Whisper", "Burned"):
        assert f"<dt>{term}</dt>" in page.text
    assert 'id="cards"' in page.text


def test_static_theme_and_script_are_served(client: Visitor) -> None:
    css = client.get("/static/theme.css")
    assert css.status_code == 200
    assert "text/css" in css.headers["content-type"]
    script = client.get("/static/app.js")
    assert script.status_code == 200
    assert "javascript" in script.headers["content-type"]


def test_every_stylesheet_a_page_links_is_served(client: Visitor) -> None:
    """The sheets split to keep each file under 400 lines are all linked, in order, and served."""
    templates = Path(__file__).resolve().parents[2] / "src/deaddrop/server/templates"
    base = (templates / "base.html").read_text(encoding="utf-8")
    assert base.index("/static/theme.css") < base.index("/static/theme_layout.css")
    for template in templates.rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        if "/static/station.css" in text:
            assert text.index("/static/station.css") < text.index("/static/station_chat.css")
    for sheet in ("theme.css", "theme_layout.css", "station.css", "station_chat.css"):
        response = client.get(f"/static/{sheet}")
        assert response.status_code == 200
        assert "text/css" in response.headers["content-type"]


def test_health_reports_ok(client: Visitor) -> None:
    response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_pages_carry_security_headers(client: Visitor) -> None:
    headers = client.get("/").headers
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"


def test_how_to_play_tells_when_the_pouch_leaves_s40_s41(client: Visitor) -> None:
    page = " ".join(client.get("/how-to-play").text.split())
    assert "once a day, at a fixed time" not in page
    # S40: the host sets the time of day and zone, or a shorter day for a quick game.
    assert "at the time of day and in the time zone the host chose" in page
    assert "A quick game</strong> has shorter days" in page
    # Day 1 (and a day after an early Pouch) lasts at least 12 hours.
    assert "Day 1 lasts at least 12 hours" in page
    # S41: an Early Pouch when every living player is done.
    assert "<strong>Early Pouch</strong>" in page and "done for the day" in page
