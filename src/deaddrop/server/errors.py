"""Exception handlers: a friendly page for people, JSON under `/api`, never a bare 500."""

from __future__ import annotations

import logging
from typing import Any

from litestar import MediaType, Request, Response
from litestar.exceptions import (
    ClientException,
    HTTPException,
    PermissionDeniedException,
    ValidationException,
)
from litestar.response import Redirect
from litestar.status_codes import (
    HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    HTTP_500_INTERNAL_SERVER_ERROR,
)
from litestar.types import ExceptionHandlersMap

from deaddrop.server.accounts.auth import LoginRequired
from deaddrop.server.overload import BUSY_MESSAGE, RETRY_AFTER_SECONDS, Overloaded, is_saturated
from deaddrop.server.render import page

API_PREFIX = "/api"
logger = logging.getLogger("deaddrop.server")

# Stamped headline and plain explanation for each status a person may meet.
TITLES = {
    400: "Garbled transmission",
    401: "Credentials required",
    403: "Refused",
    404: "Not on file",
    405: "Wrong procedure",
    413: "Too much paper",
    422: "Refused",
    429: "Too many attempts",
    500: "The office is in disarray",
    503: "The line is busy",
}
EXPLANATIONS = {
    400: "The request could not be read. Reload the page and try again.",
    404: "There is no such page. Check the address, or start again from the home page.",
    405: "That page does not accept this kind of request.",
    413: "What was sent is too large.",
    500: "Something broke on our side. It has been logged; please try again in a moment.",
}


class BadInput(ClientException):
    """A request refused at the edge (400) with a detail written for the person, shown as is."""


def is_api(request: Request[Any, Any, Any]) -> bool:
    """Whether the request is for the JSON API rather than a page."""
    scope = request.scope  # the path `request.url` would give, without making the whole URL
    path = scope.get("root_path", "") + scope["path"]
    return path == API_PREFIX or path.startswith(API_PREFIX + "/")


def describe(exc: HTTPException) -> str:
    """A message a person can act on, for a refused request."""
    if isinstance(exc, PermissionDeniedException) and "CSRF" in exc.detail:
        return (
            "This form expired or did not come from this site. Reload the page and send it again."
        )
    if isinstance(exc, ValidationException):
        return "The request could not be read: some fields were missing or malformed."
    if isinstance(exc, BadInput):
        return exc.detail
    return EXPLANATIONS.get(exc.status_code) or exc.detail


def describe_for_api(exc: HTTPException) -> str:
    """A message for a program: Litestar's own detail, except where it would say too little."""
    if isinstance(exc, PermissionDeniedException | ValidationException):
        return describe(exc)
    return exc.detail


def too_large(request: Request[Any, Any, Any]) -> str:
    """Why a body was refused as too large, with the limit it broke."""
    limit = request.app.request_max_body_size
    if not limit:
        return EXPLANATIONS[413]
    return f"{EXPLANATIONS[413][:-1]}: a form or a JSON body holds at most {limit:,} bytes."


def error_response(
    request: Request[Any, Any, Any], status_code: int, message: str
) -> Response[Any]:
    """The error as JSON for the API, or as a themed page."""
    if is_api(request):
        return Response(
            {"status_code": status_code, "detail": message},
            status_code=status_code,
            media_type=MediaType.JSON,
        )
    return page(
        "error.html",
        viewer=None,
        status_code=status_code,
        code=status_code,
        title=TITLES.get(status_code, "Refused"),
        message=message,
    )


def handle_http_exception(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    """Render a refused request (4xx) or a known server error with its status kept."""
    if exc.status_code == HTTP_413_REQUEST_ENTITY_TOO_LARGE:
        message = too_large(request)
    else:
        message = describe_for_api(exc) if is_api(request) else describe(exc)
    response = error_response(request, exc.status_code, message)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


def handle_login_required(request: Request[Any, Any, Any], exc: LoginRequired) -> Response[Any]:
    """Send a guest to the log-in form; the API answers 401."""
    if is_api(request):
        return error_response(request, exc.status_code, exc.detail)
    return Redirect(path=exc.login_url, status_code=303)


def handle_internal_error(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """Log an unexpected failure and answer with a calm 500 that reveals nothing inside.

    A database too busy to answer is no failure: 503 with Retry-After (`overload.py`).
    """
    if is_saturated(exc):
        logger.warning("database saturated on %s %s: %s", request.method, request.url.path, exc)
        response = error_response(request, Overloaded.status_code, BUSY_MESSAGE)
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    logger.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(request, HTTP_500_INTERNAL_SERVER_ERROR, EXPLANATIONS[500])


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    LoginRequired: handle_login_required,
    HTTPException: handle_http_exception,
    Exception: handle_internal_error,
}
