"""Tools sit below the engine and the contract: they import neither."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "artemiskit"


def runtime_imports(source: Path) -> set[str]:
    """Modules ``source`` imports at run time (``if TYPE_CHECKING:`` left out)."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    skipped = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_tools_import_neither_the_engine_nor_the_workflow_contract() -> None:
    offenders = {
        f"{source.name}: {module}"
        for source in (PACKAGE / "tools").glob("*.py")
        for module in runtime_imports(source)
        if module.startswith(("artemiskit.engine", "artemiskit.workflow"))
    }
    assert offenders == set()


def test_the_contract_checks_read_declarations_and_import_no_tool() -> None:
    imports = runtime_imports(PACKAGE / "workflow" / "_checks.py")
    assert not any(module.startswith("artemiskit.tools") for module in imports)
