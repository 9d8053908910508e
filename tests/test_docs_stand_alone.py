"""The project's own docs stand alone: every file they point at is in the project itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted(
    [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    + [path for folder in ("src", "tests") for path in (ROOT / folder).rglob("*.md")]
)
LINK = re.compile(r"\]\(([^)\s]+)\)")
"""A Markdown link's or image's target."""
CODE_PATH = re.compile(r"`([\w./-]+\.(?:md|py|json|txt|png))`")
"""A file named in backticks, e.g. `docs/operations.md`."""


def _pointers(text: str) -> list[str]:
    """Every relative file a document links to or names."""
    targets = LINK.findall(text) + CODE_PATH.findall(text)
    return [t.split("#")[0] for t in targets if "://" not in t and not t.startswith(("#", "/"))]


PACKAGE = ROOT / "src" / "deaddrop"
BASES = (ROOT, PACKAGE, PACKAGE / "server", PACKAGE / "server" / "templates")
"""Where the docs' short paths start: the project, the package (`engine/…`), the web app."""


def _resolves(doc: Path, target: str) -> bool:
    """Whether the target is a file beside the document, or a path from one of the BASES."""
    return any((base / target).exists() for base in (doc.parent, *BASES))


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_point_only_at_files_of_the_project(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    assert "../shared" not in text and "shared/" not in text
    missing = [target for target in _pointers(text) if "/" in target and not _resolves(doc, target)]
    assert missing == [], missing


def test_the_readme_and_the_rule_docs_are_there() -> None:
    assert len(DOCS) >= 8
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("docs/architecture.md", "docs/rules/station.md", "docs/rules/cards.md"):
        assert f"`{name}`" in readme and (ROOT / name).exists()
