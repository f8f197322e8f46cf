"""Data flows down: no package imports a higher layer, and packages form no cycle.

The layers, lowest first, are read from CONTRIBUTING.md ("Layers"): the rule as
written is the rule enforced. A module's package is its first component below
``artemiskit`` (a top-level module such as ``_kit`` is its own unit); every import
counts, at module level, inside functions and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _stated_layers() -> list[set[str]]:
    """The numbered list under "## Layers" in CONTRIBUTING.md, lowest first."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    return [
        set(re.findall(r"`([A-Za-z_]+)`", re.sub(r"\([^)]*\)", "", line)))
        for line in section.splitlines()
        if re.match(r"\d+\. ", line)
    ]


LAYERS = _stated_layers()
LAYER = {unit: level for level, units in enumerate(LAYERS) for unit in units}


def _unit(module: str) -> str:
    parts = module.split(".")
    if parts[0] in ("artemiskit_cli", "artemiskit_pytest"):
        return parts[0]
    return parts[1] if len(parts) > 1 else "artemiskit"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every ArtemisKit module ``path`` imports, resolving relative imports."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
    return {name for name in found if name.split(".")[0] in LAYER_ROOTS}


LAYER_ROOTS = {"artemiskit", "artemiskit_cli", "artemiskit_pytest"}


def _edges() -> set[tuple[str, str]]:
    edges = set()
    for root in LAYER_ROOTS:
        for path in (ROOT / root).rglob("*.py"):
            source = _unit(_module_name(path))
            for imported in _imports(path):
                target = _unit(imported)
                if target != source:
                    edges.add((source, target))
    return edges


def test_every_unit_has_a_layer() -> None:
    units = {unit for edge in _edges() for unit in edge}
    assert units - set(LAYER) == set()


def test_no_import_points_up_a_layer() -> None:
    upward = {
        (source, target)
        for source, target in _edges()
        if LAYER[target] >= LAYER[source]
    }
    assert upward == set()


def test_packages_form_no_cycle() -> None:
    graph: dict[str, set[str]] = {}
    for source, target in _edges():
        graph.setdefault(source, set()).add(target)
    visiting: list[str] = []
    done: set[str] = set()

    def visit(unit: str) -> None:
        if unit in done:
            return
        assert unit not in visiting, " -> ".join([*visiting, unit])
        visiting.append(unit)
        for target in sorted(graph.get(unit, ())):
            visit(target)
        visiting.pop()
        done.add(unit)

    for unit in sorted(graph):
        visit(unit)


def test_records_and_the_shared_layer_reach_nothing_above() -> None:
    edges = _edges()
    assert ("records", "engine") not in edges
    assert not {edge for edge in edges if edge[0] == "_common"} - {
        ("_common", "_errors")
    }


def test_the_layers_name_every_unit_once() -> None:
    named = [unit for layer in LAYERS for unit in layer]
    assert len(named) == len(set(named))
    assert "engine" in LAYER
    assert LAYER["_common"] < LAYER["records"] < LAYER["engine"] < LAYER["_kit"]


def test_the_layout_table_matches_the_tree() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([^`]+)` \|", text, flags=re.MULTILINE)
    missing = [row for row in rows if not (ROOT / row).exists()]
    assert missing == []
    package = ROOT / "artemiskit"
    units = {
        f"artemiskit/{path.name}/" if path.is_dir() else f"artemiskit/{path.name}"
        for path in package.iterdir()
        if path.name not in {"__pycache__", "py.typed", "_version.py"}
    }
    assert units - set(rows) == set()


def test_prompt_response_stays_apart_from_the_workflow_engine() -> None:
    edges = _edges()
    assert LAYER["prompt_response"] > LAYER["providers"]
    assert not {("prompt_response", "engine"), ("prompt_response", "suites")} & edges
