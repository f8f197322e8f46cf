"""The exported surface is exact, and the CLI uses only public names."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import artemiskit

PUBLIC_MODULES = [
    "artemiskit",
    "artemiskit.checkpoints",
    "artemiskit.config",
    "artemiskit.providers",
    "artemiskit.records",
    "artemiskit.targets",
    "artemiskit.testing",
    "artemiskit.tools",
    "artemiskit.workflow",
]


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_all_is_sorted_unique_and_resolvable(name: str) -> None:
    module = importlib.import_module(name)
    exported = list(module.__all__)
    assert exported == sorted(exported)
    assert len(exported) == len(set(exported))
    for attribute in exported:
        assert getattr(module, attribute) is not None


def test_top_level_exports_every_public_name_it_defines() -> None:
    defined = {
        name
        for name in vars(artemiskit)
        if not name.startswith("_") and name[0].isupper()
    }
    assert defined <= set(artemiskit.__all__)


def test_public_names_have_docstrings() -> None:
    for name in artemiskit.__all__:
        value = getattr(artemiskit, name)
        if callable(value):
            assert value.__doc__, name


def test_cli_imports_only_public_names() -> None:
    root = Path(__file__).resolve().parents[1] / "artemiskit_cli"
    offenders = []
    for source in root.rglob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            modules: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
                if node.module.startswith("artemiskit") and not node.module.startswith(
                    "artemiskit_cli"
                ):
                    modules += [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            for module in modules:
                if module.startswith("artemiskit_cli"):
                    continue
                parts = module.split(".")
                if parts[0] == "artemiskit" and any(
                    p.startswith("_") and not p.endswith("__") for p in parts
                ):
                    offenders.append(f"{source.name}: {module}")
    assert offenders == []
