"""--gate: --min-pass-rate judges the pass rate, or its interval's lower bound."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from artemiskit import ArtemisKit, WorkflowError
from tests._builders import PASSING_SCRIPT
from tests._cli import akit
from tests.suites._suites import write_member

if TYPE_CHECKING:
    from pathlib import Path


def _always_passes(tmp_path: Path) -> Path:
    root = tmp_path / "suite"
    write_member(root, "steady", [PASSING_SCRIPT])
    return root


@pytest.mark.parametrize(
    ("gate", "threshold", "code"),
    [
        ("point", 0.9, 0),  # 10/10 = 100%
        ("lower-bound", 0.9, 8),  # Wilson's lower bound at 10/10 is 72.2%
        ("lower-bound", 0.72, 0),
        ("lower-bound", 0.73, 8),
    ],
)
async def test_the_gate_decides_exit_8(
    tmp_path: Path, gate: str, threshold: float, code: int
) -> None:
    result = await ArtemisKit().run_suite(
        paths=_always_passes(tmp_path),
        output_dir=tmp_path / "out",
        repeat=10,
        min_pass_rate=threshold,
        gate=gate,  # type: ignore[arg-type]
    )
    assert result.exit_code == code
    saved = json.loads((tmp_path / "out" / "suite.json").read_text())
    assert saved["settings"]["gate"] == gate
    (workflow,) = saved["workflows"]
    assert workflow["pass_rate"] == 1.0
    assert workflow["pass_rate_interval"]["low"] == pytest.approx(0.7225, abs=1e-4)


async def test_an_unknown_gate_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WorkflowError, match="gate must be one of point, lower-bound"):
        await ArtemisKit().run_suite(
            paths=_always_passes(tmp_path),
            gate="median",  # type: ignore[arg-type]
        )


def test_the_cli_gate(tmp_path: Path) -> None:
    root = _always_passes(tmp_path)
    common = ("workflow", "run", root, "--repeat", "10", "--min-pass-rate", "0.9")
    point = akit(*common, "--output-dir", tmp_path / "point")
    assert point.returncode == 0, point.stderr
    bound = akit(*common, "--gate", "lower-bound", "--output-dir", tmp_path / "lb")
    assert bound.returncode == 8, bound.stderr
    wrong = akit(*common, "--gate", "mean", "--output-dir", tmp_path / "x")
    assert wrong.returncode == 2
    assert "--gate" in wrong.stderr
