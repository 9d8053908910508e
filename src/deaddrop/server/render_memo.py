"""A memo of rendered pages, keyed by a digest of everything the page is made of.

A tab page is a pure function of its template, its context (what the handler read for this
viewer), the viewer's account columns the templates read, the CSRF token, and the request's
path and query (base.html reads the path for a guest's "log in" link). Flashes are the one
other input, and they are read once (`get_flashes` pops them): a page carrying flashes is
never memoised. The key is a blake2b digest of all of these, the context pickled whole, so a
page is reused only for the very same inputs, by the same viewer in the same browser (the
CSRF token is the browser's own): no viewer is ever served a page built for another (S26–S31),
and nothing needs telling when the database moves on, since what it says is in the context.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import pickle
from collections.abc import Callable
from functools import cache
from operator import attrgetter
from typing import Any

from litestar import Request
from litestar.enums import MediaType
from litestar.response import Response, Template
from litestar.utils.scope.state import ScopeState
from markupsafe import Markup

from deaddrop.server.accounts.models import User
from deaddrop.server.hosting.memo import Memo
from deaddrop.server.render import page

FLASHES = "_messages"
"""Where Litestar's flash plugin keeps a session's flashes (`litestar.plugins.flash`)."""


@cache
def _field_values(kind: type) -> Callable[[Any], tuple[Any, ...]] | None:
    """A function giving the field values of a `kind` instance; None unless a slotted dataclass
    (kept per class met in a page's inputs)."""
    # Slotted ones only: an instance with a `__dict__` may hold more than its fields.
    if not dataclasses.is_dataclass(kind) or kind.__dictoffset__ != 0:
        return None
    names = tuple(field.name for field in dataclasses.fields(kind))
    if len(names) >= 2:
        return attrgetter(*names)  # a tuple of the values, read in C
    return lambda value: tuple(getattr(value, name) for name in names)


class _KeyPickler(pickle.Pickler):
    """Pickles a page's inputs for its key: escaped text (`Markup`) as its class and its
    characters, a slotted dataclass as its class and its field values. The same values their own
    pickling holds, without its Python code for each one (`copyreg` for a str subclass, a
    frozen, slotted dataclass's `__getstate__`): a page holds a hundred escaped messages."""

    def reducer_override(self, obj: Any) -> Any:
        """Markup and dataclasses as (class, values); anything else as pickle does it."""
        if type(obj) is Markup:
            return (Markup, (str.__str__(obj),))
        kind: type = type(obj)
        values = _field_values(kind)
        if values is None:
            return NotImplemented
        return (kind, values(obj))


def viewer_columns(viewer: User | None) -> tuple[Any, ...] | None:
    """The account columns a page's templates read (base.html, the practice banner), and the id."""
    if viewer is None:
        return None
    return (viewer.id, viewer.guest, viewer.display_name, viewer.username)


def has_flashes(request: Request[Any, Any, Any]) -> bool:
    """Whether the request's session holds flashes for the next page."""
    session = request.scope.get("session")
    return isinstance(session, dict) and bool(session.get(FLASHES))


def page_key(
    request: Request[Any, Any, Any], template: str, viewer: User | None, context: dict[str, Any]
) -> bytes | None:
    """The digest of every input of the page; None when the context cannot be pickled."""
    csrf = ScopeState.from_scope(request.scope).csrf_token  # what `csrf_token()` prints
    parts = (template, request.url.path, request.url.query, csrf, viewer_columns(viewer), context)
    return digest(parts)


def digest(parts: Any) -> bytes | None:
    """A blake2b digest of `parts` pickled (`_KeyPickler`); None when they cannot be pickled."""
    out = io.BytesIO()
    try:
        _KeyPickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(parts)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None  # something the page needs has no pickled form: render it afresh
    return hashlib.blake2b(out.getbuffer(), digest_size=32).digest()


def memoised_page(
    request: Request[Any, Any, Any],
    memo: Memo[bytes, bytes],
    template: str,
    *,
    viewer: User | None,
    headers: dict[str, str],
    **context: Any,
) -> Response[bytes] | Template:
    """`page(template, viewer=viewer, headers=headers, **context)`, from `memo` when the same
    inputs were rendered before; rendered here otherwise, and kept."""
    key = None if has_flashes(request) else page_key(request, template, viewer, context)
    if key is None:
        return page(template, viewer=viewer, headers=headers, **context)
    body = memo.get(key)
    if body is None:
        fresh = page(template, viewer=viewer, headers=headers, **context)
        engine = request.app.template_engine
        assert engine is not None  # the app is built with its templates
        values = fresh.create_template_context(request)
        body = engine.get_template(template).render(**values).encode(fresh.encoding)
        memo.put(key, body)
    return Response(body, media_type=MediaType.HTML, headers=headers)
