"""Suite mode with ``--record-cassettes DIR`` and ``--replay DIR`` (SPEC 22)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests._cli import akit
from tests.suites._suites import write_suite

from ._compare import comparable, records_of


def _record(tmp_path: Path) -> Path:
    write_suite(tmp_path)
    done = akit(
        "workflow",
        "run",
        "suite",
        "--repeat",
        "2",
        "--output-dir",
        "recorded",
        "--record-cassettes",
        "cassettes",
        "--min-pass-rate",
        "0",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    return tmp_path / "cassettes"


def _replay(tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run the suite twice from ``cassettes``, writing to ``replayed``."""
    return akit(
        "workflow",
        "run",
        "suite",
        "--repeat",
        "2",
        "--output-dir",
        "replayed",
        "--replay",
        "cassettes",
        cwd=tmp_path,
    )


def test_a_suite_records_and_replays_through_the_cli(tmp_path: Path) -> None:
    cassettes = _record(tmp_path)
    assert sorted(
        p.relative_to(cassettes).as_posix() for p in cassettes.rglob("*.jsonl")
    ) == [
        "flaky/001.cassette.jsonl",
        "flaky/002.cassette.jsonl",
        "steady/001.cassette.jsonl",
        "steady/002.cassette.jsonl",
    ]
    # the scripts are gone: only the cassettes can answer
    for script in (tmp_path / "suite").rglob("*.script.yaml"):
        script.unlink()
    done = akit(
        "workflow",
        "run",
        "suite",
        "--repeat",
        "2",
        "--output-dir",
        "replayed",
        "--replay",
        "cassettes",
        "--min-pass-rate",
        "0",
        "--json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    before = records_of(tmp_path / "recorded")
    after = records_of(tmp_path / "replayed")
    assert {k: comparable(v) for k, v in after.items()} == {
        k: comparable(v) for k, v in before.items()
    }
    summary = json.loads(done.stdout)
    assert summary["totals"]["failed"] == 1  # flaky's second run, as recorded


def test_a_missing_cassette_stops_the_suite_before_any_run(tmp_path: Path) -> None:
    cassettes = _record(tmp_path)
    (cassettes / "flaky" / "002.cassette.jsonl").unlink()
    done = _replay(tmp_path)
    assert done.returncode == 2
    assert "flaky/002.cassette.jsonl" in done.stderr
    assert not (tmp_path / "replayed").exists()


def test_a_cassette_of_another_workflow_is_refused(tmp_path: Path) -> None:
    cassettes = _record(tmp_path)
    shutil.copy(
        cassettes / "steady" / "001.cassette.jsonl",
        cassettes / "flaky" / "001.cassette.jsonl",
    )
    done = _replay(tmp_path)
    assert done.returncode == 2
    assert "another workflow contract" in done.stderr


def test_single_run_cassette_options_are_refused_in_suite_mode(tmp_path: Path) -> None:
    write_suite(tmp_path)
    done = akit(
        "workflow",
        "run",
        "suite",
        "--output-dir",
        "out",
        "--record-cassette",
        "one.jsonl",
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert "--record-cassette" in done.stderr


def test_a_dataset_suite_on_two_targets_replays_its_own_cassettes(
    tmp_path: Path,
) -> None:
    """Cassettes laid out runs/<workflow>/<case>/<target>/ are found on replay."""
    example = Path(__file__).parents[2] / "examples" / "datasets"
    shutil.copytree(example, tmp_path / "datasets")
    workflow = tmp_path / "datasets" / "triage.workflow.yaml"
    common = ["--sample", "2", "--target", "scripted:agent"]
    common += ["--target", "scripted:careful", "--min-pass-rate", "0"]
    done = akit(
        "workflow", "run", workflow, "--output-dir", "recorded",
        "--record-cassettes", "cassettes", *common, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "cassettes").rglob("*.cassette.jsonl"))) == 4
    done = akit(
        "workflow", "run", workflow, "--output-dir", "replayed",
        "--replay", "cassettes", *common, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    before = records_of(tmp_path / "recorded")
    after = records_of(tmp_path / "replayed")
    assert len(after) == 4
    assert {k: comparable(v) for k, v in after.items()} == {
        k: comparable(v) for k, v in before.items()
    }
