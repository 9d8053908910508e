"""Reading the JSON document a command is given: a file, or standard input for "-"."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


class JsonInputError(ValueError):
    """Why the input is not a JSON document, in one line fit for standard error."""


def read_json(source: str) -> Any:
    """Parse JSON from a path, or from standard input when the source is "-"."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise JsonInputError(f"cannot read {source}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise JsonInputError(f"cannot read {source}: not UTF-8 text") from None
    return parse_json(text)


def parse_json(text: str) -> Any:
    """Parse a JSON document; a syntax error or too deep a nesting is a JsonInputError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise JsonInputError(f"not valid JSON: {error}") from None
    except RecursionError:
        # The parser recurses once per `[` or `{`: past Python's stack limit it gives up.
        raise JsonInputError("not valid JSON: nested too deeply") from None
