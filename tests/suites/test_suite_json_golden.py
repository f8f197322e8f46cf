"""``suite.json`` stays byte-compatible: scripted suites against checked-in goldens.

Two offline suites (a target matrix with a flaky workflow, and a workflow with
cases) are run and their ``suite.json`` compared byte for byte with the goldens
in ``fixtures/golden``, once the values that differ from run to run (ids, times,
durations) are normalised. Set ``ARTEMISKIT_WRITE_GOLDEN=1`` to rewrite them
after an intended change of the format.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from artemiskit import ArtemisKit
from tests._builders import PASSING_SCRIPT
from tests.suites._suites import FAILING_SCRIPT, write_member
from tests.suites.test_dataset_suites import suite_folder

GOLDEN = Path(__file__).parent / "fixtures" / "golden"

_VOLATILE = (
    (re.compile(r'"suite_id": "[0-9a-f]{32}"'), '"suite_id": "SUITE"'),
    (re.compile(r'"run_id": "[^"]+"'), '"run_id": "RUN"'),
    (re.compile(r'"(started_at|finished_at)": "[^"]+"'), r'"\1": "TIME"'),
    (re.compile(r'"duration_ms": [0-9]+'), '"duration_ms": 0'),
)


def normalised(data: bytes) -> str:
    """``suite.json``'s text with ids, times and durations replaced."""
    text = data.decode("utf-8")
    for pattern, replacement in _VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def _check(name: str, written: bytes) -> None:
    golden = GOLDEN / name
    text = normalised(written)
    if os.environ.get("ARTEMISKIT_WRITE_GOLDEN") == "1":
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


async def test_a_target_matrix_suite_json_matches_its_golden(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    for name in ("steady", "flaky"):
        path = write_member(suite, name, [PASSING_SCRIPT])
        weak = {"version": 1, "variants": [PASSING_SCRIPT, FAILING_SCRIPT]}
        (path.parent / "weak.script.yaml").write_text(json.dumps(weak), "utf-8")
    out = tmp_path / "out"
    await ArtemisKit().run_suite(
        paths=[suite],
        output_dir=out,
        repeat=3,
        concurrency=1,
        min_pass_rate=0.5,
        targets=["scripted:agent", "scripted:weak"],
    )
    _check("matrix.suite.json", (out / "suite.json").read_bytes())


async def test_a_suite_with_cases_suite_json_matches_its_golden(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    await ArtemisKit().run_suite(
        paths=[suite_folder(tmp_path, cases=3)],
        output_dir=out,
        repeat=2,
        concurrency=1,
    )
    _check("cases.suite.json", (out / "suite.json").read_bytes())


async def test_a_plain_suite_json_matches_its_golden(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    write_member(suite, "steady", [PASSING_SCRIPT])
    write_member(suite, "flaky", [PASSING_SCRIPT, FAILING_SCRIPT])
    out = tmp_path / "out"
    await ArtemisKit().run_suite(
        paths=[suite], output_dir=out, repeat=4, concurrency=1, gate="lower-bound"
    )
    _check("plain.suite.json", (out / "suite.json").read_bytes())
