"""Record and replay on a real local Ray cluster (SPEC 22 with SPEC 15).

Cassettes travel as plain data: a run on a worker records its cassette into its
result (the driver writes it), and a replayed run gets its cassette shipped with
the task. A suite recorded on Ray replays offline, locally, with equal records.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests._cli import akit_process
from tests.replay._compare import comparable, records_of
from tests.suites._suites import write_suite
from tests.suites.conftest import LOOPBACK

pytestmark = [pytest.mark.ray, pytest.mark.slow]
ENV = {**os.environ, **LOOPBACK}


def test_a_suite_recorded_on_ray_replays_on_ray_and_locally(
    tmp_path: Path, ray_cluster: str
) -> None:
    suite = write_suite(tmp_path)
    common = [str(suite), "--repeat", "2", "--min-pass-rate", "0", "--quiet"]
    ray = ["--executor", "ray", "--ray-address", ray_cluster]
    cassettes = tmp_path / "cassettes"
    recorded = akit_process(
        "workflow",
        "run",
        *common,
        *ray,
        "--output-dir",
        str(tmp_path / "recorded"),
        "--record-cassettes",
        str(cassettes),
        timeout=180,
        env=ENV,
    )
    assert recorded.returncode == 0, recorded.stderr
    assert len(list(cassettes.rglob("*.cassette.jsonl"))) == 4
    for script in suite.rglob("*.script.yaml"):
        script.unlink()
    for name, executor in (("on-ray", ray), ("here", [])):
        replayed = akit_process(
            "workflow",
            "run",
            *common,
            *executor,
            "--output-dir",
            str(tmp_path / name),
            "--replay",
            str(cassettes),
            timeout=180,
            env=ENV,
        )
        assert replayed.returncode == 0, replayed.stderr
        before = records_of(tmp_path / "recorded")
        after = records_of(tmp_path / name)
        assert {k: comparable(v) for k, v in after.items()} == {
            k: comparable(v) for k, v in before.items()
        }
