"""Workflows with cases on a real local Ray cluster (SPEC 19 with SPEC 15).

Each task carries its unit's case expanded and the files the workflow names (its
script), never the dataset: the records and ``suite.json`` equal the local
executor's, and no case value reaches the suite's evidence.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from artemiskit.suites import load_suite_record
from tests._cli import akit_process
from tests.suites._suites import comparable_summary
from tests.suites.conftest import LOOPBACK
from tests.suites.test_dataset_suites import SENTINEL, every_text, suite_folder

pytestmark = [pytest.mark.ray, pytest.mark.slow]
ENV = {**os.environ, **LOOPBACK}
#: Record fields that differ between two runs of the same unit.
_VOLATILE = {"run_id", "attempt_id", "started_at", "finished_at", "duration_ms"}


def _comparable(path: Path) -> dict[str, object]:
    record = json.loads(path.read_text("utf-8"))
    kept = {k: v for k, v in record.items() if k not in _VOLATILE}
    kept["execution"] = {
        k: v for k, v in record["execution"].items() if k not in _VOLATILE
    }
    return kept


def test_cases_run_on_ray_with_the_records_of_the_local_executor(
    tmp_path: Path, ray_cluster: str
) -> None:
    path = suite_folder(tmp_path, cases=4)
    common = [
        str(path), "--repeat", "2", "--min-pass-rate", "0", "--quiet",
        "--case", "c-1", "--case", "c-2", "--case", "c-4",
    ]  # fmt: skip
    ray = ["--executor", "ray", "--ray-address", ray_cluster]
    for name, executor in (("local", []), ("ray", ray)):
        done = akit_process(
            "workflow", "run", *common, *executor,
            "--output-dir", str(tmp_path / name),
            timeout=180, env=ENV,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert SENTINEL not in done.stdout + done.stderr
    on_ray = load_suite_record(tmp_path / "ray" / "suite.json")
    here = load_suite_record(tmp_path / "local" / "suite.json")
    assert on_ray["settings"]["executor"] == "ray"
    assert comparable_summary(on_ray) == comparable_summary(here)
    units = {u["case"]: (u["passed"], u["failed"]) for u in on_ray["units"]}
    assert units == {"c-1": (2, 0), "c-2": (0, 2), "c-4": (2, 0)}
    records = sorted(
        p.relative_to(tmp_path / "ray")
        for p in (tmp_path / "ray").rglob("*.record.json")
    )
    assert [r.as_posix() for r in records] == [
        f"runs/triage/c-{n}/{r:03d}.record.json" for n in (1, 2, 4) for r in (1, 2)
    ]
    for relative in records:
        assert _comparable(tmp_path / "ray" / relative) == _comparable(
            tmp_path / "local" / relative
        )
    assert SENTINEL not in every_text(tmp_path / "ray")
