"""``akit scenario validate`` stays offline: no HTTP or Docker library is imported."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "examples" / "quickstart" / "workflow.yaml"
FORBIDDEN = ("httpx", "aiodocker", "httpcore", "aiohttp")

PROBE = """
import atexit, json, sys
listing = sys.argv[1]
def report():
    with open(listing, "w") as out:
        json.dump(sorted(sys.modules), out)
atexit.register(report)
sys.argv = ["akit", "scenario", "validate", *sys.argv[2:]]
from artemiskit_cli._main import main
main()
"""


def _imported(tmp_path: Path, *args: str) -> tuple[int, list[str], str]:
    listing = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(listing), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=ROOT,
    )
    return done.returncode, json.loads(listing.read_text("utf-8")), done.stderr


@pytest.mark.parametrize("flags", [(), ("--json",)])
def test_valid_workflow_imports_no_network_or_docker(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    code, modules, stderr = _imported(tmp_path, *flags, str(QUICKSTART))
    assert code == 0, stderr
    assert "artemiskit.workflow" in modules
    loaded = [m for m in modules if m.split(".")[0] in FORBIDDEN]
    assert loaded == []


def test_invalid_workflow_imports_no_network_or_docker(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: 2\n", "utf-8")
    code, modules, stderr = _imported(tmp_path, str(broken))
    assert code == 2, stderr
    assert [m for m in modules if m.split(".")[0] in FORBIDDEN] == []


def test_importtime_shows_no_network_or_docker() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "artemiskit_cli",
            "scenario",
            "validate",
            str(QUICKSTART),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    imported = {
        line.rsplit("|", 1)[-1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert "artemiskit.workflow" in imported
    assert not {m for m in imported if m.split(".")[0] in FORBIDDEN}


def test_scenario_command_imports_only_public_names() -> None:
    source = ROOT / "artemiskit_cli" / "_commands" / "scenario.py"
    tree = ast.parse(source.read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            parts = node.module.split(".")
            if parts[0] == "artemiskit":
                assert not any(p.startswith("_") for p in parts), node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "artemiskit":
                    assert not any(p.startswith("_") for p in parts), alias.name
