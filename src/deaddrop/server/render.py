"""Page rendering helpers shared by every area of the site."""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from litestar import Request
from litestar.response import Redirect, Template
from markupsafe import Markup

from deaddrop.server.accounts.models import User
from deaddrop.server.words import counted

FORM_REFUSED = 422
"""Status of a form re-rendered with messages: the browser shows it, scripts see a refusal."""


def jinja_environment() -> Environment:
    """The template environment: packaged templates, escaping on, undefined names are errors."""
    environment = Environment(
        loader=PackageLoader("deaddrop.server", "templates"),
        autoescape=select_autoescape(default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # Templates ship inside the package and change only with it: no stat of every
        # template file on every render (a restart picks up a new version).
        auto_reload=False,
    )
    environment.filters["counted"] = counted  # {{ n|counted("player") }}: "1 player", "6 players"
    return environment


_FRAGMENTS: list[Environment] = []


def fragment(template: str, **context: Any) -> Markup:
    """A piece of a page from a template under `templates/`, rendered here (to be kept and
    placed in pages later), with the pages' own environment settings."""
    if not _FRAGMENTS:
        _FRAGMENTS.append(jinja_environment())
    return Markup(_FRAGMENTS[0].get_template(template).render(**context))


def page(
    template: str,
    *,
    viewer: User | None,
    status_code: int = 200,
    headers: dict[str, str] | None = None,
    **context: Any,
) -> Template:
    """A full page for `viewer` (None for a guest) from a template under `templates/`."""
    return Template(
        template_name=template,
        context={"viewer": viewer, **context},
        status_code=status_code,
        headers=headers,
    )


def see_other(path: str) -> Redirect:
    """POST-redirect-GET: send the browser on to `path` with a 303."""
    return Redirect(path=path, status_code=303)


def client_ip(request: Request[Any, Any, Any]) -> str:
    """The client's address as the ASGI server saw it (after its proxy-header handling)."""
    return request.client.host if request.client else "unknown"
