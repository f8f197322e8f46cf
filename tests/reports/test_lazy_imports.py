"""The report code and its extra stay out of `akit --help` and `scenario validate`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reports._evidence import ROOT

PROBE = """
import atexit, json, sys
listing = sys.argv[1]
def report():
    with open(listing, "w") as out:
        json.dump(sorted(sys.modules), out)
atexit.register(report)
sys.argv = ["akit", *sys.argv[2:]]
from artemiskit_cli._main import main
main()
"""
HEAVY = ("jinja2", "matplotlib", "markupsafe", "artemiskit.reports")


def _imported(tmp_path: Path, *args: str) -> list[str]:
    listing = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(listing), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    modules: list[str] = json.loads(listing.read_text("utf-8"))
    return modules


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("report", "--help"),
        ("scenario", "validate", "examples/quickstart/workflow.yaml"),
    ],
)
def test_the_report_code_is_not_imported(tmp_path: Path, args: tuple[str, ...]) -> None:
    modules = _imported(tmp_path, *args)
    assert [m for m in modules if m.startswith(HEAVY)] == []


def test_a_markdown_report_imports_no_template_or_plotting_library(
    example_suite: Path, tmp_path: Path
) -> None:
    modules = _imported(tmp_path, "report", str(example_suite))
    assert "artemiskit.reports" in modules
    assert [m for m in modules if m.startswith(("jinja2", "matplotlib"))] == []
