"""Every relative link of the README and docs/ points to a file that exists, and every
``#anchor`` to a heading of its target (GitHub's slugs): moving text between pages cannot
leave a dead link behind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {slug(m) for m in re.findall(r"^#+ (.+)$", text, flags=re.M)}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_relative_link_reaches_its_file_and_heading(page):
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # http(s), mailto
            continue
        path, _, anchor = target.partition("#")
        file = page if not path else (page.parent / path).resolve()
        assert file.exists(), f"{page.name}: dead link {target}"
        if anchor and file.suffix == ".md":
            assert anchor in anchors(file), f"{page.name}: no heading for {target}"


def test_the_readme_stays_a_front_door():
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
