"""The names of the site's cookies: set by the session and CSRF configurations (app.py) and
read before them by the known pages (station/tabs/known_pages.py)."""

SESSION_COOKIE = "deaddrop_session"
"""The session's ID (a server-side session: the data stays in the database)."""
CSRF_COOKIE = "deaddrop_csrf"
"""The browser's CSRF token, which every form and API post must repeat."""
