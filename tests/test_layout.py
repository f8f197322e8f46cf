"""CONTRIBUTING.md's layout table is the tree: it cannot drift (issue 29).

The table lists every top-level package and module of ``artemiskit`` exactly,
each package's row names every module and folder in it and no module that is
not there, and the map of STYLE.md's layout names only paths that exist.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "artemiskit"
_ROW = re.compile(r"^\| `([^`]+)` \| (.*) \|$", flags=re.MULTILINE)
_IGNORED = {"__pycache__", "__init__.py"}


def _section(title: str) -> str:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    return text.split(f"\n{title}\n", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]


def _layout_rows() -> dict[str, str]:
    return dict(_ROW.findall(_section("## Layout")))


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"`([^`]+)`", text))


def _on_disk() -> set[str]:
    return {
        f"artemiskit/{path.name}/" if path.is_dir() else f"artemiskit/{path.name}"
        for path in PACKAGE.iterdir()
        if path.name != "__pycache__"
    }


def _named(entry: Path, tokens: set[str]) -> bool:
    spellings = {entry.name, f"{entry.name}/"}
    if entry.suffix == ".py":
        spellings.add(entry.stem)
    if spellings & tokens:
        return True
    return any("*" in token and fnmatch.fnmatch(entry.name, token) for token in tokens)


def test_the_table_lists_exactly_the_packages_and_modules_of_the_tree() -> None:
    listed = {row for row in _layout_rows() if row.startswith("artemiskit/")}
    assert listed == _on_disk()


def test_every_row_is_a_path_that_exists() -> None:
    missing = [row for row in _layout_rows() if not (ROOT / row).exists()]
    assert missing == []


def test_each_package_row_names_every_module_and_folder_in_it() -> None:
    unnamed = {
        f"{row}{entry.name}"
        for row, text in _layout_rows().items()
        if row.startswith("artemiskit/") and row.endswith("/")
        for entry in (ROOT / row).iterdir()
        if entry.name not in _IGNORED and not _named(entry, _tokens(text))
    }
    assert unnamed == set()


def test_each_module_a_package_row_names_is_in_that_package() -> None:
    absent = {
        f"{row}: {token}"
        for row, text in _layout_rows().items()
        if row.startswith("artemiskit/") and row.endswith("/")
        for token in _tokens(text)
        if re.fullmatch(r"[A-Za-z0-9_.*-]+(\.py|\.schema\.json|\.sh)", token)
        and not any((ROOT / row).rglob(token))
    }
    assert absent == set()


def test_the_map_of_the_style_layout_names_only_paths_that_exist() -> None:
    rows = re.findall(
        r"^\| (.+?) \| (.+) \|$",
        _section("### Where each entry of STYLE's layout lives"),
        flags=re.MULTILINE,
    )[1:]  # after the header
    assert len(rows) > 60  # every entry of the block, one row each
    paths = {
        token
        for _, where in rows
        for token in _tokens(where)
        if token.startswith(("artemiskit/", "artemiskit_cli/", "artemiskit_pytest/"))
    }
    missing = sorted(p for p in paths if not any(ROOT.glob(p.rstrip("/"))))
    assert missing == []


def test_the_checks_catch_drift(tmp_path: Path) -> None:
    """A module on disk but not in its row, and one named but gone, are caught."""
    (tmp_path / "_new.py").touch()
    (tmp_path / "data.v1.schema.json").touch()
    assert not _named(tmp_path / "_new.py", {"_old.py"})
    assert _named(tmp_path / "_new.py", {"_new"})
    assert _named(tmp_path / "data.v1.schema.json", {"data.v*.schema.json"})
