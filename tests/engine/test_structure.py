"""The engine's shape: no mixins, and one owner of the session state."""

from __future__ import annotations

import ast
from pathlib import Path

import artemiskit

PACKAGE = Path(artemiskit.__file__).resolve().parent
ENGINE = PACKAGE / "engine"


def test_no_mixin_anywhere_in_the_package() -> None:
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "Mixin" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []


def test_only_the_state_owner_calls_the_transitions() -> None:
    callers = []
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and (
                    node.module.endswith("_transitions")
                    or any(alias.name == "_transitions" for alias in node.names)
                )
            ):
                callers.append(path.name)
    assert set(callers) <= {"_run_state.py"}
