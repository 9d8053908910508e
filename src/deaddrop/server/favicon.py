"""The site's icon: `/favicon.svg` (drawn for the theme: an envelope under a red seal on cable
blue), linked from every page, and `/favicon.ico` for the browsers and tools that ask for that
address without reading the page."""

from __future__ import annotations

from pathlib import Path

from litestar import Response, Router, get
from litestar.datastructures import CacheControlHeader
from litestar.response import Redirect

ICON = (Path(__file__).parent / "static" / "favicon.svg").read_bytes()
PATH = "/favicon.svg"
# A week: the icon changes rarely, and a stale one costs nothing.
CACHE = CacheControlHeader(max_age=7 * 24 * 3600, public=True)


@get(PATH, name="favicon", skip_session=True, cache_control=CACHE, sync_to_thread=False)
def favicon() -> Response[bytes]:
    """The icon itself."""
    return Response(ICON, media_type="image/svg+xml")


@get("/favicon.ico", name="favicon_ico", skip_session=True, sync_to_thread=False)
def favicon_ico() -> Redirect:
    """The address browsers try by themselves: a lasting redirect to the icon."""
    return Redirect(PATH, status_code=301, headers={"Cache-Control": CACHE.to_header()})


router = Router(path="/", route_handlers=[favicon, favicon_ico])
