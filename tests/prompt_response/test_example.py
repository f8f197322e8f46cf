"""examples/prompt-response runs offline, as docs/prompt-response.md shows."""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING

from tests._cli import akit
from tests.examples.test_examples import ROOT

if TYPE_CHECKING:
    from pathlib import Path


def test_the_offline_example_passes_every_case(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples" / "prompt-response", tmp_path / "example")
    assert akit("validate", "example", cwd=tmp_path).returncode == 0
    done = akit(
        "run",
        "example",
        "--judge-config",
        "example/judge.yaml",
        "--summary",
        "json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["cases"] == {"total": 9, "passed": 9, "failed": 0, "successRate": 1}
    assert "skipped example/judge.yaml is a configuration file" in done.stderr
