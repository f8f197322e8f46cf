"""Data flows down: no package imports a higher layer, and nothing forms a cycle.

The layers, lowest first, are read from CONTRIBUTING.md ("Layers"): the rule as
written is the rule enforced. A module's package is its first component below
``artemiskit`` (a top-level module such as ``_kit`` is its own unit); every import
counts, at module level, inside functions and under ``TYPE_CHECKING``.

Below the packages, modules form no import cycle either: every import that runs
when a module is imported (module level, under ``TYPE_CHECKING``, in ``try`` or
``if`` blocks; not inside functions) is an edge between modules, and so is each
package whose ``__init__`` such an import runs first. The "never"
rules the layers imply are also asserted by name, so a broken one says which.
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


def _module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """The imports that run when the module is imported (not those in functions)."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            pending.extend(ast.iter_child_nodes(node))
    return found


def _module_graph() -> dict[str, set[str]]:
    """Module → the ArtemisKit modules its module-level imports load."""
    paths = {
        _module_name(path): path
        for root in LAYER_ROOTS
        for path in (ROOT / root).rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _module_level_imports(tree):
            if isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names}
                continue
            base = _absolute(node, package)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.add(submodule if submodule in paths else base)
        targets |= _packages_run_first(targets, module)
        graph[module] = {t for t in targets if t in paths and t != module}
    return graph


def _packages(module: str) -> set[str]:
    """The packages Python imports before ``module`` (``a.b.c``: ``a``, ``a.b``)."""
    parts = module.split(".")
    return {".".join(parts[:end]) for end in range(1, len(parts))}


def _packages_run_first(targets: set[str], module: str) -> set[str]:
    """The packages importing ``targets`` runs first: importing ``a.b._c`` runs
    ``a/__init__.py`` and ``a/b/__init__.py`` before it. Those ``module`` is
    itself inside are already being imported, so they are no new edge."""
    own = _packages(module) | {module}
    return {package for t in targets for package in _packages(t)} - own


def _absolute(node: ast.ImportFrom, package: str) -> str:
    base = node.module or ""
    if not node.level:
        return base
    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join([*anchor, base] if base else anchor)


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (its modules in order), or ``None``."""
    visiting: list[str] = []
    done: set[str] = set()

    def visit(node: str) -> list[str] | None:
        if node in done:
            return None
        if node in visiting:
            return [*visiting[visiting.index(node) :], node]
        visiting.append(node)
        for target in sorted(graph.get(node, ())):
            found = visit(target)
            if found is not None:
                return found
        visiting.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        found = visit(node)
        if found is not None:
            return found
    return None


def _imports(path: Path) -> set[str]:
    """Every ArtemisKit module ``path`` imports, resolving relative imports."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            found.add(_absolute(node, package))
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


def test_prompt_response_stays_apart_from_the_workflow_engine() -> None:
    edges = _edges()
    assert LAYER["prompt_response"] > LAYER["providers"]
    assert not {("prompt_response", "engine"), ("prompt_response", "suites")} & edges


def test_modules_form_no_import_cycle() -> None:
    cycle = _cycle(_module_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycle(graph) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_importing_a_submodule_runs_its_packages_first() -> None:
    assert _packages_run_first(
        {"artemiskit.reports._html", "artemiskit.suites._plan"},
        "artemiskit.suites._runner",
    ) == {"artemiskit.reports"}
    # suites/_plan.py imports modules of artemiskit._common, never the package
    # itself; importing them runs artemiskit/_common/__init__.py first.
    assert "artemiskit._common" in _module_graph()["artemiskit.suites._plan"]


def test_the_module_graph_counts_imports_under_type_checking() -> None:
    graph = _module_graph()
    # suites/_create.py names the session factory only under TYPE_CHECKING.
    assert "artemiskit.suites._factory" in graph["artemiskit.suites._create"]
    # An import inside a function is not an edge: it runs when it is called
    # (the environment registry imports the Docker sandbox only when one is made).
    registry = graph["artemiskit.environments._registry"]
    assert "artemiskit.environments.sandbox._environment" not in registry


#: Package → the packages it must never import, directly (SPEC 2, CONTRIBUTING).
NEVER = {
    # Records are data: they never reach the engine or anything that runs.
    "records": {"engine", "tools", "environments", "providers", "suites", "_kit"},
    # Tools are called by the engine, never the reverse.
    "tools": {"engine", "providers", "suites", "_kit"},
    # The workflow contract owns the tool interfaces and never imports what
    # runs it: no tool implementation, environment, engine or provider.
    "workflow": {"tools", "environments", "engine", "providers"},
    # Environments and checkpoint stores are backends below the engine.
    "environments": {"engine", "providers", "tools", "workflow"},
    "checkpoints": {"engine", "records", "environments", "tools"},
    # Telemetry exports records and events; it never drives a run.
    "telemetry": {"engine", "suites", "_kit"},
    # Reports read saved evidence; they never run anything.
    "reports": {"engine", "providers", "environments", "_kit"},
    # The historical runner stays apart from the workflow engine.
    "prompt_response": {"engine", "suites"},
}


def test_the_never_rules_hold_by_name() -> None:
    edges = _edges()
    broken = {
        (source, target)
        for source, never in NEVER.items()
        for target in never
        if (source, target) in edges
    }
    assert broken == set()
    assert set(NEVER) <= set(LAYER)


def test_the_cli_and_the_plugin_import_only_public_modules() -> None:
    private = {
        (_module_name(path), imported)
        for root in ("artemiskit_cli", "artemiskit_pytest")
        for path in (ROOT / root).rglob("*.py")
        for imported in _imports(path)
        if imported.split(".")[0] == "artemiskit"
        and any(part.startswith("_") for part in imported.split(".")[1:])
    }
    assert private == set()
