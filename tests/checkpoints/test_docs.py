"""docs/checkpoints.md: its interface listing is exact and its snippet passes."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path

from artemiskit.checkpoints import CheckpointStore

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "checkpoints.md").read_text(encoding="utf-8")
SNIPPETS = re.findall(r"```python\n(.*?)```", PAGE, re.S)
PRELUDE = """\
from __future__ import annotations
from collections.abc import Mapping
from typing import Any, Literal, Protocol
"""


def test_interface_listing_matches_the_protocol() -> None:
    namespace: dict[str, object] = {}
    exec(PRELUDE + SNIPPETS[0], namespace)
    listed = namespace["CheckpointStore"]
    assert isinstance(listed, type)

    def methods(cls: type) -> dict[str, list[tuple[str, object]]]:
        return {
            name: [
                (p.name, p.kind) for p in inspect.signature(value).parameters.values()
            ]
            for name, value in vars(cls).items()
            if inspect.iscoroutinefunction(value)
        }

    assert methods(listed) == methods(CheckpointStore)


def test_conformance_snippet_passes(tmp_path: Path) -> None:
    test_file = tmp_path / "test_snippet.py"
    test_file.write_text(SNIPPETS[1], encoding="utf-8")
    config = ["-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path)]
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [*command, *config, str(test_file)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout
