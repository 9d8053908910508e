"""An open page with its pushes applied the way static/station_live.js applies them: a `page`
replaces the live part, an `append` adds a message, a `region` replaces a region of the Floor,
a `badge` grows a tab's count, a `cursor` changes nothing shown."""

from __future__ import annotations

import json
import re

from deaddrop.server.station.live import routes as station_live
from deaddrop.server.station.live.regions import region_part

BADGE = re.compile(
    r' <span class="tab-badge"><span class="visually-hidden">\(</span>(\d+\+?)<.*?</span></span>'
)


def applied(page: str, pushes: list[tuple[int, str, str]]) -> str:
    """`page` with the pushes applied the way station_live.js applies them."""
    for _seq, event, data in pushes:
        if event == "page":
            start = page.index(station_live.START) + len(station_live.START)
            page = page[:start] + data + page[page.index(station_live.END, start) :]
        elif event == "append":
            page = _append(page, json.loads(data))
        elif event == "badge":
            page = _badge(page, json.loads(data))
        elif event == "region":
            page = _region(page, json.loads(data))
        else:
            assert event == "cursor", event
    return page


def _append(page: str, push: dict[str, object]) -> str:
    panel = page.index(f'id="{push["panel"]}"')
    end = page.index("  </ol>", panel)
    page = page[:end] + str(push["html"]) + page[end:]
    if push["older"] is not None:
        first = page.index('    <li class="chat-message"', panel)
        page = page[:first] + page[page.index("    </li>\n", first) + len("    </li>\n") :]
        link = page.index('class="chat-older"', panel)
        after = re.sub(r"before=\d+", f"before={push['older']}", page[link:], count=1)
        page = page[:link] + after
    return page


def _region(page: str, push: dict[str, str]) -> str:
    """The region replaced whole, its markers included, as the script's `region` does."""
    old = region_part(page, push["name"])
    assert page.count(old) == 1, push["name"]
    return page.replace(old, push["html"])


def _badge(page: str, push: dict[str, object]) -> str:
    link = re.search(rf'<a href="[^"]*/{push["tab"]}">[^< ]*', page)
    assert link is not None
    rest = page[link.end() :]
    found = BADGE.match(rest)
    was = found.group(1) if found else "0"
    count = 100 if was.endswith("+") else int(was) + int(str(push["add"]))
    text = "99+" if count > 99 else str(count)
    html = (
        f' <span class="tab-badge"><span class="visually-hidden">(</span>{text}'
        '<span class="visually-hidden"> new)</span></span>'
    )
    return page[: link.end()] + html + (rest[found.end() :] if found else rest)
