r"""A path with control characters is never echoed raw by any ``akit`` message.

File names may hold any byte but ``/`` and NUL: ``\x01``, an escape sequence that
recolours a terminal, a carriage return that rewrites the line, a newline that
forges a line of its own. Every message naming a user path shows it through the
CLI's one terminal-escaping home (`artemiskit_cli._render.printable`), so such a
name is seen as escapes (``\x1b``, ``\x0d``, ``\x0a``), on one line.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from artemiskit_cli._render import printable
from tests._builders import write_workflow
from tests._cli import akit

if TYPE_CHECKING:
    from pathlib import Path

#: A file name with a C0 control, a colour escape, a carriage return and a newline.
NAME = "we\x01ird\x1b[31m\rx\ny"
SHOWN = printable(NAME)
RAW = ("\x01", "\x1b", "\r")


def _assert_escaped(stderr: str) -> None:
    assert SHOWN in stderr, stderr
    for character in RAW:
        assert character not in stderr
    # the newline of the name never starts a line of its own
    assert not any(line.startswith("y") for line in stderr.splitlines())
    assert "Traceback" not in stderr


def _lines(tmp_path: Path) -> dict[str, list[str]]:
    """Command lines that each name the hostile path in a message."""
    workflow = str(write_workflow(tmp_path))
    hostile = str(tmp_path / NAME)
    (tmp_path / f"{NAME}.exists").write_text("x", "utf-8")
    (tmp_path / f"{NAME}.bad.yaml").write_text("version: 1\nname: [\n", "utf-8")
    return {
        "workflow run missing": ["workflow", "run", f"{hostile}.yaml"],
        "workflow run output exists": [
            "workflow", "run", workflow, "--output", f"{hostile}.exists",
        ],
        "workflow run config missing": [
            "workflow", "run", workflow, "--config", f"{hostile}.yaml",
        ],
        "workflow run replay missing": [
            "workflow", "run", workflow, "--replay", f"{hostile}.jsonl",
        ],
        "workflow resume checkpoint missing": [
            "workflow", "resume", workflow, "--checkpoint-dir", hostile,
        ],
        "scenario validate invalid": ["scenario", "validate", f"{hostile}.bad.yaml"],
        "scenario validate missing": ["scenario", "validate", f"{hostile}.yaml"],
        "report missing": ["report", f"{hostile}.json"],
        "report compare missing": ["report", "compare", hostile, hostile],
        "validate invalid": ["validate", f"{hostile}.bad.yaml"],
        "run missing": ["run", f"{hostile}.yaml"],
        "compare missing": ["compare", f"{hostile}.json", f"{hostile}.json"],
        "baseline set missing": ["baseline", "set", f"{hostile}.json"],
        "plan suite missing": ["plan", "--suite", hostile, "--detect", "0.1"],
        "mcp config missing": ["mcp", "tools", "x", "--config", f"{hostile}.yaml"],
    }  # fmt: skip


#: The cases of `_lines`, by name.
IDS = [
    "workflow run missing",
    "workflow run output exists",
    "workflow run config missing",
    "workflow run replay missing",
    "workflow resume checkpoint missing",
    "scenario validate invalid",
    "scenario validate missing",
    "report missing",
    "report compare missing",
    "validate invalid",
    "run missing",
    "compare missing",
    "baseline set missing",
    "plan suite missing",
    "mcp config missing",
]


@pytest.mark.parametrize("case", IDS)
def test_a_message_shows_a_hostile_path_escaped(tmp_path: Path, case: str) -> None:
    line = _lines(tmp_path)[case]
    done = akit(*line, cwd=tmp_path)
    assert done.returncode != 0
    _assert_escaped(done.stderr)


def test_an_output_a_suite_wrote_is_named_escaped(tmp_path: Path) -> None:
    workflow = write_workflow(tmp_path)
    out = tmp_path / f"{NAME}.out"
    done = akit("workflow", "run", workflow, "--output-dir", out)
    assert done.returncode == 0, done.stderr
    _assert_escaped(done.stderr)
    html = tmp_path / f"{NAME}.html"
    reported = akit("report", out, "--html", html)
    assert reported.returncode == 0, reported.stderr
    _assert_escaped(reported.stderr)
    assert json.loads((out / "suite.json").read_text("utf-8"))["exit_code"] == 0
