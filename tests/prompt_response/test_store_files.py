"""Hand-edited, odd and hostile files in the prompt-response store.

A store file is opened without blocking (a FIFO is refused, never waited on), read
as strict JSON and checked before use: every command answers with exit 1 or 2 and
``FILE: what is wrong``, never a traceback or a hang.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import FileAccessError
from artemiskit.prompt_response import LocalStorage, read_manifest_file
from tests._cli import akit
from tests.prompt_response.conftest import write_config
from tests.prompt_response.test_cli_baselines import run_id_of
from tests.prompt_response.test_cli_run import stored, write_scenario

if TYPE_CHECKING:
    from pathlib import Path

    from tests.providers._chat_server import ChatServer


def _stored_run(folder: Path, server: ChatServer) -> tuple[str, Path]:
    write_config(folder, server.url)
    write_scenario(folder, "store", "ok")
    done = akit("run", "scenarios", cwd=folder)
    assert done.returncode == 0, done.stderr
    [path] = stored(folder)
    return run_id_of(done.stderr), path


@pytest.mark.parametrize(
    "entry",
    [
        {"scenario": "store"},
        {"scenario": "store", "runId": 7, "createdAt": "x", "metrics": {}},
        {"scenario": "store", "runId": "r", "createdAt": "x", "metrics": []},
        "not an object",
    ],
)
def test_a_hand_edited_baselines_file_is_named_not_crashed_on(
    model_server: ChatServer, tmp_path: Path, entry: Any
) -> None:
    run_id, _ = _stored_run(tmp_path, model_server)
    assert akit("baseline", "set", run_id, cwd=tmp_path).returncode == 0
    path = tmp_path / "artemis-runs" / ".artemis" / "baselines.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["baselines"]["store"] = entry
    path.write_text(json.dumps(data), encoding="utf-8")
    for command in (
        ("baseline", "list"),
        ("baseline", "list", "--json"),
        ("baseline", "get", "store", "-s"),
        ("baseline", "get", run_id),
        ("baseline", "remove", run_id, "-f"),
        ("run", "scenarios", "--baseline"),
    ):
        done = akit(*command, cwd=tmp_path)
        assert done.returncode == 1, (command, done.stderr)
        assert "Traceback" not in done.stderr
        assert "baselines.json: the baseline of 'store': " in done.stderr, command
    assert json.loads(path.read_text(encoding="utf-8"))["baselines"]["store"] == entry


@pytest.mark.parametrize(
    ("edit", "why", "reported"),
    [
        (
            lambda text: text.replace('"duration_ms": ', '"duration_ms": NaN, "x": '),
            "holds NaN, which is not a JSON number",
            True,
        ),
        (
            lambda text: text.replace('"duration_ms": ', '"duration_ms": 1e400, "x": '),
            "holds a number too large to represent",
            True,
        ),
        (
            lambda text: text.replace(
                '"duration_ms": ', f'"duration_ms": {"9" * 5000}, "x": '
            ),
            "holds an integer outside the 64-bit range",
            True,
        ),
        (
            lambda text: text[:-1] + ', "deep": ' + "[" * 100_000 + "]" * 100_000 + "}",
            "nests deeper than 256 arrays or objects",
            True,
        ),
        (
            lambda text: text.replace('"run_id": "', '"run_id": "../../x', 1),
            "runId is not a run id",
            True,
        ),
    ],
)
def test_an_odd_manifest_is_refused_with_its_name(
    model_server: ChatServer, tmp_path: Path, edit: Any, why: str, reported: bool
) -> None:
    _, path = _stored_run(tmp_path, model_server)
    odd = tmp_path / "odd.json"
    odd.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    commands: list[tuple[Any, ...]] = [("compare", odd, path), ("baseline", "set", odd)]
    if reported:
        # `akit report` reads a file that is not strict JSON as workflow
        # evidence (the reports' reader, issue 28 item 2), which says the same.
        commands.append(("report", odd, "--html", tmp_path / "r.html"))
    for command in commands:
        done = akit(*command, cwd=tmp_path)
        assert done.returncode == 2, (command, done.stderr)
        assert "Traceback" not in done.stderr
        assert f"{odd}: " in done.stderr
        assert why in done.stderr
    assert not (tmp_path / "r.html").exists()
    assert not (tmp_path.parent / "x.html").exists()


def test_a_fifo_in_the_store_is_refused_never_waited_on(
    model_server: ChatServer, tmp_path: Path
) -> None:
    run_id, path = _stored_run(tmp_path, model_server)
    fifo = path.parent / "fifoRun00001.json"
    os.mkfifo(fifo)
    given = tmp_path / "given.json"
    os.mkfifo(given)
    history = akit("history", cwd=tmp_path)
    assert history.returncode == 0, history.stderr
    assert run_id in history.stdout
    assert "fifoRun00001" not in history.stdout
    for command in (("compare", given, path), ("baseline", "set", given)):
        done = akit(*command, cwd=tmp_path)
        assert done.returncode == 1, (command, done.stderr)
        assert "Traceback" not in done.stderr
        assert f"{given}: cannot read the file" in done.stderr
    assert akit("report", "fifoRun00001", cwd=tmp_path).returncode == 1
    baselines = tmp_path / "artemis-runs" / ".artemis" / "baselines.json"
    baselines.parent.mkdir()
    os.mkfifo(baselines)
    for again in (("baseline", "list"), ("baseline", "set", run_id)):
        done = akit(*again, cwd=tmp_path)
        assert done.returncode == 1, (again, done.stderr)
        assert "not a regular file" in done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("project", ["..", ".x", ".", "a/b", "", "a\0b"])
def test_a_project_that_is_not_one_plain_folder_is_refused(
    tmp_path: Path, project: str
) -> None:
    storage = LocalStorage(tmp_path / "store")
    with pytest.raises(FileAccessError, match="one folder name") as raised:
        storage.project_folder(project)
    assert raised.value.reason == "unsafe_project"
    assert storage.runs(project=project) == []
    assert list(tmp_path.iterdir()) == []


def test_read_manifest_file_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(FileAccessError):
        read_manifest_file(tmp_path)
