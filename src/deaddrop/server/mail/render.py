"""The mail templates (`templates/mail/*.txt` and `*.html`): text unescaped, HTML escaped."""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape


@cache
def mail_environment() -> Environment:
    """Templates under `templates/mail/`; only `.html` ones escape, and undefined names fail."""
    return Environment(
        loader=PackageLoader("deaddrop.server", "templates"),
        autoescape=select_autoescape(enabled_extensions=("html",), default=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_mail(name: str, context: dict[str, Any]) -> tuple[str, str]:
    """The plain text and the HTML of `mail/<name>` for this context."""
    env = mail_environment()
    text = env.get_template(f"mail/{name}.txt").render(**context)
    html = env.get_template(f"mail/{name}.html").render(**context)
    return text, html
