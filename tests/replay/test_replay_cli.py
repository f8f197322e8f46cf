"""``akit workflow run --record-cassette / --replay``: refusals and evidence (SPEC 22).

Every refusal of a cassette is exit 2 before any tool runs (no record is written),
naming the file and, where it has one, the line; nothing of a cassette's content
reaches a record, the printed summary, the JSON output or an error message.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from tests import _cli
from tests._builders import USAGE, workflow_dict, write_workflow

SENTINEL = "CASSETTE-SENTINEL-93b0"


def _workflow(folder: Path) -> Path:
    data = workflow_dict(
        conversation={"turns": [{"user": f"Summarize the policy. {SENTINEL}"}]},
        environment={
            "files": {"docs/policy.md": f"Refunds within 30 days. {SENTINEL}"}
        },
    )
    script: list[dict[str, Any]] = [
        {
            "tool_calls": [
                {"name": "read_file", "arguments": {"path": "docs/policy.md"}}
            ],
            "usage": USAGE,
        },
        {
            "tool_calls": [
                {
                    "name": "write_file",
                    "arguments": {"path": "out/summary.md", "content": "30 days"},
                }
            ],
            "usage": USAGE,
        },
        {"text": f"Done. {SENTINEL}", "usage": USAGE},
    ]
    return write_workflow(folder, data, script)


def _record(tmp_path: Path) -> tuple[Path, Path]:
    workflow = _workflow(tmp_path)
    cassette = tmp_path / "run.cassette.jsonl"
    done = _cli.akit(
        "workflow",
        "run",
        workflow,
        "--record-cassette",
        cassette,
        "--output",
        tmp_path / "recorded.json",
    )
    assert done.returncode == 0, done.stderr
    return workflow, cassette


def _replay(tmp_path: Path, workflow: Path, cassette: Path | str, *extra: str) -> Any:
    return _cli.akit(
        "workflow",
        "run",
        workflow,
        "--replay",
        cassette,
        "--output",
        tmp_path / "replayed.json",
        *extra,
    )


def test_record_then_replay_through_the_cli(tmp_path: Path) -> None:
    workflow, cassette = _record(tmp_path)
    assert stat.S_IMODE(cassette.stat().st_mode) == 0o600
    assert SENTINEL in cassette.read_text()  # the cassette holds the content...
    done = _replay(tmp_path, workflow, cassette, "--json")
    assert done.returncode == 0, done.stderr
    recorded = json.loads((tmp_path / "recorded.json").read_text())
    replayed = json.loads((tmp_path / "replayed.json").read_text())
    assert replayed["replay"]["cassette_digest"] == recorded["cassette"]["digest"]
    assert replayed["verdict"] == recorded["verdict"]
    for text in (
        (tmp_path / "recorded.json").read_text(),
        (tmp_path / "replayed.json").read_text(),
        done.stdout,
        done.stderr,
    ):
        assert SENTINEL not in text  # ...and nothing else does


def test_a_mismatch_is_exit_2_naming_step_and_field_never_content(
    tmp_path: Path,
) -> None:
    workflow, cassette = _record(tmp_path)
    data = json.loads(workflow.read_text())
    data["conversation"]["turns"][0]["user"] = f"Summarize it. {SENTINEL}-2"
    workflow.write_text(json.dumps(data))
    # the conversation is part of the contract: the cassette is another one's
    done = _replay(tmp_path, workflow, cassette)
    assert done.returncode == 2
    assert "another workflow contract" in done.stderr
    assert SENTINEL not in done.stderr
    assert not (tmp_path / "replayed.json").exists()


def test_strict_mismatch_through_the_cli(tmp_path: Path) -> None:
    workflow, cassette = _record(tmp_path)
    data = json.loads(workflow.read_text())
    data["target"]["parameters"] = {"seed": 7}
    workflow.write_text(json.dumps(data))
    done = _replay(tmp_path, workflow, cassette)
    assert done.returncode == 2, done.stderr
    assert "replay mismatch at step 1" in done.stderr
    assert "parameters" in done.stderr
    assert SENTINEL not in done.stderr + done.stdout
    record = json.loads((tmp_path / "replayed.json").read_text())
    assert record["execution"]["reason"] == "replay_mismatch"
    assert SENTINEL not in json.dumps(record)
    lenient = _cli.akit(
        "workflow", "run", workflow, "--replay", cassette, "--replay-mode", "lenient"
    )
    assert lenient.returncode == 0, lenient.stderr


def _rewrite(cassette: Path, change: Any) -> None:
    lines = cassette.read_text().splitlines()
    cassette.write_text("\n".join(change(lines)) + "\n")


@pytest.mark.parametrize(
    ("damage", "reason_text"),
    [
        (lambda p: p.write_bytes(p.read_bytes()[:-5]), "last line is incomplete"),
        (lambda p: _rewrite(p, lambda ls: [*ls[:2], ls[2][:40], *ls[3:]]), ":3:"),
        (lambda p: _rewrite(p, lambda ls: ls[:-1]), "end line is missing"),
        (
            lambda p: _rewrite(
                p,
                lambda ls: [
                    ls[0].replace('"schema_version":1', '"schema_version":2'),
                    *ls[1:],
                ],
            ),
            "unknown cassette schema_version",
        ),
        (
            lambda p: _rewrite(
                p, lambda ls: [ls[0], ls[1].replace('"step":1', '"step":2'), *ls[2:]]
            ),
            "not numbered in order",
        ),
        (
            lambda p: _rewrite(
                p,
                lambda ls: [
                    ls[0],
                    ls[1].replace('"input_tokens":10', '"input_tokens":-1'),
                    *ls[2:],
                ],
            ),
            "does not satisfy the cassette schema",
        ),
        (lambda p: p.write_text(""), "incomplete"),
        (lambda p: p.write_text("[]\n"), "not a cassette header"),
    ],
)
def test_a_damaged_cassette_is_refused_before_the_run(
    tmp_path: Path, damage: Any, reason_text: str
) -> None:
    workflow, cassette = _record(tmp_path)
    damage(cassette)
    done = _replay(tmp_path, workflow, cassette)
    assert done.returncode == 2, done.stderr
    assert reason_text in done.stderr
    assert str(cassette) in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "replayed.json").exists()


def test_a_missing_cassette_is_exit_2(tmp_path: Path) -> None:
    workflow = _workflow(tmp_path)
    done = _replay(tmp_path, workflow, tmp_path / "nowhere.cassette.jsonl")
    assert done.returncode == 2
    assert "no such file" in done.stderr
    assert not (tmp_path / "replayed.json").exists()


def test_a_cassette_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    workflow = _workflow(tmp_path)
    fifo = tmp_path / "fifo.cassette.jsonl"
    os.mkfifo(fifo)
    done = _replay(tmp_path, workflow, fifo)  # never blocks on the FIFO
    assert done.returncode == 2
    assert "not a regular file" in done.stderr
    folder = tmp_path / "folder"
    folder.mkdir()
    assert _replay(tmp_path, workflow, folder).returncode == 2


def test_record_cassette_must_be_a_new_path_apart_from_the_replayed_one(
    tmp_path: Path,
) -> None:
    workflow, cassette = _record(tmp_path)
    again = _cli.akit("workflow", "run", workflow, "--record-cassette", cassette)
    assert again.returncode == 1
    assert "already exists" in again.stderr
    fresh = tmp_path / "new.cassette.jsonl"
    both = _cli.akit(
        "workflow", "run", workflow, "--replay", cassette, "--record-cassette", fresh
    )
    assert both.returncode == 0, both.stderr
    assert fresh.exists()


def test_replay_options_need_replay(tmp_path: Path) -> None:
    workflow = _workflow(tmp_path)
    for extra in (["--replay-until", "1"], ["--replay-mode", "lenient"]):
        done = _cli.akit("workflow", "run", workflow, *extra)
        assert done.returncode == 2
        assert "needs --replay" in done.stderr


def test_an_edited_request_digest_stops_a_strict_replay_at_its_step(
    tmp_path: Path,
) -> None:
    workflow, cassette = _record(tmp_path)
    lines = cassette.read_text().splitlines()
    second = json.loads(lines[2])
    second["request_digest"] = "sha256:" + "0" * 64
    lines[2] = json.dumps(second)
    cassette.write_text("\n".join(lines) + "\n")
    done = _replay(tmp_path, workflow, cassette)
    assert done.returncode == 2
    assert "replay mismatch at step 2" in done.stderr
    assert "the recorded request digest" in done.stderr
    lenient = _cli.akit(
        "workflow", "run", workflow, "--replay", cassette, "--replay-mode", "lenient"
    )
    assert lenient.returncode == 0, lenient.stderr
