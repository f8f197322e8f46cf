"""The pages keep their links and say what the product does not promise."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.examples._blocks import FENCE, PAGES, ROOT

LINK = re.compile(r"\]\(([^)\s]+)\)")


def prose(page: Path) -> str:
    """The page without its fenced blocks."""
    return FENCE.sub("", page.read_text("utf-8"))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def links() -> list[tuple[Path, str]]:
    return [
        (page, target)
        for page in PAGES
        for target in LINK.findall(prose(page))
        if not re.match(r"[a-z]+:", target)
    ]


def test_there_are_links() -> None:
    assert len(links()) >= 50


@pytest.mark.parametrize(
    ("page", "target"), links(), ids=[f"{p.name}->{t}" for p, t in links()]
)
def test_every_relative_link_resolves(page: Path, target: str) -> None:
    path, _, anchor = target.partition("#")
    destination = page.parent / path if path else page
    assert destination.exists(), f"{page.name}: {target}"
    if anchor and destination.suffix == ".md":
        headings = re.findall(r"^#+ (.*)$", prose(destination), re.M)
        assert anchor in {slug(h) for h in headings}, f"{page.name}: {target}"


@pytest.mark.parametrize(
    ("page", "statement"),
    [
        ("README.md", "Budgets are not an absolute spend guarantee"),
        ("README.md", "Digests are not encryption"),
        ("README.md", "Checkpoints are Linux-only"),
        ("docs/budgets.md", "not an absolute spend guarantee"),
        ("docs/records.md", "Digests are not encryption"),
        ("docs/checkpoints.md", "Linux-only"),
    ],
)
def test_the_limits_are_stated_where_users_look(page: str, statement: str) -> None:
    text = re.sub(r"\s+", " ", prose(ROOT / page)).replace("*", "")
    assert statement in text


def test_the_readme_names_every_built_in_provider_type() -> None:
    from artemiskit.providers import provider_types

    text = (ROOT / "README.md").read_text("utf-8")
    for kind in provider_types():
        assert f"`{kind}`" in text, kind


def test_the_checkpoints_page_names_no_stale_record_schema_version() -> None:
    from artemiskit.records import RECORD_SCHEMA_VERSION

    text = prose(ROOT / "docs" / "checkpoints.md")
    stale = [
        int(found)
        for found in re.findall(r"schema version (\d+)\)", text)
        if int(found) != RECORD_SCHEMA_VERSION
    ]
    assert stale == []


def test_the_pytest_page_says_how_to_install_pytest() -> None:
    import tomllib

    text = prose(ROOT / "docs" / "pytest.md")
    assert "pip install 'artemiskit[pytest]'" in text
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "optional-dependencies"
    ]
    assert any(item.startswith("pytest") for item in extras["pytest"])
