"""Outputs are proven creatable before any model call, and written whole or not at all.

Tests run as root in CI, where permission bits do not stop writes. The read-only
folder tests therefore run `akit` without CAP_DAC_OVERRIDE when they are root, so
the folder refuses new files for the child as it would for any user.
"""

from __future__ import annotations

import json
import resource
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests._builders import workflow_dict, write_workflow
from tests._cli import akit, akit_process
from tests._permissions import obey_permission_bits

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


def akit_in(
    *args: str | Path, prepare: Callable[[], None]
) -> subprocess.CompletedProcess[str]:
    """``akit`` in a real process that runs ``prepare`` first (drops privileges)."""
    return akit_process(*args, preexec_fn=prepare)


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    yield folder
    folder.chmod(0o700)


def assert_refused_before_any_model_call(
    done: subprocess.CompletedProcess[str], output: Path, *, left: set[str]
) -> None:
    assert done.returncode == 1, done.stderr
    assert f"cannot create output {output}" in done.stderr
    assert "admitted" not in done.stderr  # no model request, no tool call
    assert "started" not in done.stderr
    assert "Traceback" not in done.stderr
    # Neither the output nor a probe is left behind.
    assert {entry.name for entry in output.parent.iterdir()} == left


@pytest.mark.parametrize("command", ["run", "preflight"])
def test_read_only_output_folder_is_refused_before_any_model_call(
    tmp_path: Path, read_only: Path, command: str
) -> None:
    workflow = write_workflow(tmp_path)
    output = read_only / "record.json"
    done = akit_in(
        "workflow", command, workflow, "--output", output, prepare=obey_permission_bits
    )
    assert_refused_before_any_model_call(done, output, left=set())
    assert "Permission denied" in done.stderr


def test_read_only_state_output_folder_is_refused_before_any_model_call(
    tmp_path: Path, read_only: Path
) -> None:
    workflow = write_workflow(tmp_path)
    record = tmp_path / "record.json"
    state = read_only / "state.json"
    done = akit_in(
        "workflow",
        "run",
        workflow,
        "--output",
        record,
        "--state-output",
        state,
        prepare=obey_permission_bits,
    )
    assert_refused_before_any_model_call(done, state, left=set())
    assert not record.exists()


def test_resume_with_a_read_only_output_folder_leaves_the_checkpoint_resumable(
    tmp_path: Path, read_only: Path
) -> None:
    workflow = write_workflow(tmp_path)
    checkpoint = tmp_path / "checkpoint"
    paused = akit(
        "workflow",
        "run",
        workflow,
        "--checkpoint-dir",
        checkpoint,
        "--pause-after-actions",
        "2",
    )
    assert paused.returncode == 10, paused.stderr
    output = read_only / "resumed.json"
    refused = akit_in(
        "workflow",
        "resume",
        workflow,
        "--checkpoint-dir",
        checkpoint,
        "--output",
        output,
        prepare=obey_permission_bits,
    )
    assert_refused_before_any_model_call(refused, output, left=set())
    # Nothing was claimed or consumed: the same checkpoint still resumes to a pass.
    resumed_path = tmp_path / "resumed.json"
    resumed = akit(
        "workflow", "resume", workflow, "--checkpoint-dir", checkpoint,
        "--output", resumed_path,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    record = json.loads(resumed_path.read_text())
    assert record["budget"]["used"]["model_requests"] == 3


def test_a_name_the_folder_cannot_take_is_refused_before_any_model_call(
    tmp_path: Path,
) -> None:
    workflow = write_workflow(tmp_path)
    output = tmp_path / ("r" * 300 + ".json")  # longer than any file system allows
    done = akit("workflow", "run", workflow, "--output", output)
    assert_refused_before_any_model_call(
        done, output, left={"workflow.yaml", "agent.script.yaml"}
    )


def test_an_output_under_a_regular_file_is_refused_before_any_model_call(
    tmp_path: Path,
) -> None:
    workflow = write_workflow(tmp_path)
    output = tmp_path / "workflow.yaml" / "record.json"
    done = akit("workflow", "run", workflow, "--output", output)
    assert done.returncode == 1
    assert f"the folder of output {output} does not exist" in done.stderr
    assert "admitted" not in done.stderr


_FILE_SIZE_LIMIT = 64 * 1024


def _limit_file_size() -> None:
    """In the child: no file may grow past the limit (Python then gets EFBIG)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (_FILE_SIZE_LIMIT, _FILE_SIZE_LIMIT))


def test_state_export_that_cannot_be_written_fails_with_exit_1_and_no_file(
    tmp_path: Path,
) -> None:
    """The record fits under the file size limit; the state, with a large file, not."""
    files: dict[str, Any] = {
        "docs/policy.md": "Refunds within 30 days.",
        "docs/large.md": "x" * (2 * _FILE_SIZE_LIMIT),
    }
    workflow = write_workflow(tmp_path, workflow_dict(environment={"files": files}))
    record_path = tmp_path / "record.json"
    state_path = tmp_path / "state.json"
    done = akit_in(
        "workflow",
        "run",
        workflow,
        "--output",
        record_path,
        "--state-output",
        state_path,
        prepare=_limit_file_size,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert (
        f"error: the requested state export failed: cannot write {state_path}: "
        "File too large"
    ) in done.stderr
    assert not state_path.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "agent.script.yaml",
        "record.json",
        "workflow.yaml",
    ]
    record = json.loads(record_path.read_text())
    assert record["exit_code"] == 0  # the run passed; keeping its state did not


@pytest.mark.parametrize(
    "option",
    [
        ("--output-dir",),
        ("--output-dir", "out", "--record-cassettes"),
        ("--output-dir", "out", "--junit"),
        ("--output-dir", "out", "--markdown"),
        ("--checkpoint-dir",),
        ("--record-cassette",),
        ("--transcript-output",),
    ],
    ids=" ".join,
)
def test_dash_is_no_output_folder_or_file_of_a_workflow_run(
    tmp_path: Path, option: tuple[str, ...]
) -> None:
    """``-`` never means standard output: not a folder named ``-`` either."""
    path = write_workflow(tmp_path)
    done = akit("workflow", "run", path, *option, "-", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "'-' is not an output here" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "-").exists()
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("option", ["--junit", "--markdown"])
def test_a_refused_export_of_a_suite_makes_no_output_folder(
    tmp_path: Path, option: str
) -> None:
    path = write_workflow(tmp_path)
    (tmp_path / "exists.txt").write_text("kept", "utf-8")
    done = akit(
        "workflow", "run", path, "--output-dir", "out", option, "exists.txt",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "already exists" in done.stderr
    assert not (tmp_path / "out").exists()
    assert (tmp_path / "exists.txt").read_text("utf-8") == "kept"


@pytest.mark.parametrize("inside", [False, True], ids=["folder", "below it"])
def test_an_output_folder_that_cannot_be_examined_is_exit_1(
    tmp_path: Path, inside: bool
) -> None:
    """A mode-0 folder (root is made to obey the bits): an error, no traceback."""
    path = write_workflow(tmp_path)
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o000)
    try:
        out = closed / "out" if inside else closed
        done = akit_in("workflow", "run", path, "--output-dir", out,
                       prepare=obey_permission_bits)  # fmt: skip
    finally:
        closed.chmod(0o700)
    assert done.returncode == 1, done.stderr
    assert f"output folder {out}" in done.stderr
    assert "Permission denied" in done.stderr
    assert "Traceback" not in done.stderr
    assert list(closed.iterdir()) == []


@pytest.mark.parametrize("mode", [0o000, 0o555], ids=["closed", "read-only"])
def test_a_refused_cassette_folder_makes_no_output_folder(
    tmp_path: Path, mode: int
) -> None:
    path = write_workflow(tmp_path)
    guarded = tmp_path / "guarded"
    guarded.mkdir(mode=mode)
    try:
        done = akit_in(
            "workflow", "run", path, "--output-dir", tmp_path / "out",
            "--record-cassettes", guarded / "cassettes", prepare=obey_permission_bits,
        )  # fmt: skip
    finally:
        guarded.chmod(0o700)
    assert done.returncode == 1, done.stderr
    assert f"output folder {guarded / 'cassettes'}" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()
    assert list(guarded.iterdir()) == []
