"""Tools sit below the engine and above the contract whose interfaces they implement."""

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


def test_tools_import_the_contract_but_never_the_engine() -> None:
    offenders = {
        f"{source.name}: {module}"
        for source in (PACKAGE / "tools").glob("*.py")
        for module in runtime_imports(source)
        if module.startswith("artemiskit.engine")
    }
    assert offenders == set()
    family = runtime_imports(PACKAGE / "tools" / "_files.py")
    assert "artemiskit.workflow._interfaces" in family


def test_the_contract_imports_no_tool_anywhere() -> None:
    """Not at run time, not under TYPE_CHECKING, not inside a function (issue 29)."""
    offenders = set()
    for source in (PACKAGE / "workflow").glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            offenders |= {
                f"{source.name}: {name}"
                for name in names
                if name.startswith("artemiskit.tools")
            }
    assert offenders == set()
