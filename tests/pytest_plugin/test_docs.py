"""docs/pytest.md's ``$ pytest ...`` sessions run as shown, in a copy of examples/.

The general docs test checks ``akit`` commands; this one runs the page's pytest
commands (``cd`` included) and checks every output line the page shows.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.examples._blocks import ROOT, Block, page_blocks

PAGE = ROOT / "docs" / "pytest.md"

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]


def sessions() -> list[Block]:
    return [
        block
        for block in page_blocks(PAGE)
        if block.language == "console" and "$ pytest" in block.body
    ]


def squeeze(text: str) -> str:
    return " ".join(text.split())


def test_the_page_shows_pytest_sessions() -> None:
    assert len(sessions()) >= 3


@pytest.mark.parametrize("block", sessions(), ids=lambda b: b.where)
def test_pytest_session_runs_as_shown(block: Block, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    folder = tmp_path
    printed = ""
    for line in block.body.splitlines():
        if line.startswith("$ "):
            words = shlex.split(line[2:])
            if words[0] == "cd":
                folder = folder / words[1]
                continue
            assert words[0] == "pytest", line
            done = subprocess.run(
                [sys.executable, "-m", "pytest", *words[1:]],
                cwd=folder,
                capture_output=True,
                text=True,
                timeout=240,
                check=False,
                env={**os.environ, "COLUMNS": "80"},
            )
            printed = squeeze(done.stdout + done.stderr)
            assert "Traceback" not in printed
        elif line.strip() and line.strip() != "...":
            assert squeeze(line) in printed, f"{block.where}: {line}\n{printed}"
