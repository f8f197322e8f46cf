"""A dataset suite on a target matrix: a cassette per run of each unit (SPEC 22).

Each (workflow, case, target) is a unit with a cassette per repetition, at its
record's relative path. Recorded against a stochastic model on 127.0.0.1, the
suite replays with the server stopped into identical records; a cassette moved to
another case's or target's place is refused before anything runs (exit 2), naming
the unit and never a case's values.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests._builders import workflow_dict
from tests._cli import akit
from tests.providers._chat_server import ChatServer

from ._compare import comparable, records_of
from ._stochastic import ListenerOnPort, config_for, serve_stochastic

KEY = "sk-unit-cassettes-SENTINEL-31bb"
#: Case values: never in a refusal.
VALUE = "CASE-VALUE-SENTINEL-9f2e"
TARGETS = ["local:m1", "local:m2"]
CASES = ("c-1", "c-2")
REPEAT = 2


def _dataset_workflow(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = workflow_dict(
        name="tickets",
        target={"provider": "local", "model": "m1"},
        cases=[{"id": case, "topic": f"{VALUE}-{case}"} for case in CASES],
        conversation={"turns": [{"user": "Summarize the policy for {{ topic }}."}]},
    )
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def _record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    suite = tmp_path / "suite"
    _dataset_workflow(suite)
    monkeypatch.setenv("TEST_REPLAY_KEY", KEY)
    with ChatServer() as server:
        serve_stochastic(server, 3 * len(CASES) * len(TARGETS) * REPEAT)
        config = config_for(tmp_path / "artemis.config.yaml", server.url)
        done = akit(
            "workflow",
            "run",
            tmp_path / "suite",
            "--config",
            config,
            *(part for target in TARGETS for part in ("--target", target)),
            "--repeat",
            str(REPEAT),
            "--output-dir",
            tmp_path / "recorded",
            "--record-cassettes",
            tmp_path / "cassettes",
            "--min-pass-rate",
            "0",
            "--quiet",
        )
        url = server.url
    assert done.returncode == 0, done.stderr
    monkeypatch.delenv("TEST_REPLAY_KEY")
    return config, url


def _replay(
    tmp_path: Path, config: Path, output: str, cassettes: Path
) -> subprocess.CompletedProcess[str]:
    return akit(
        "workflow",
        "run",
        tmp_path / "suite",
        "--config",
        config,
        *(part for target in TARGETS for part in ("--target", target)),
        "--repeat",
        str(REPEAT),
        "--output-dir",
        tmp_path / output,
        "--replay",
        cassettes,
        "--min-pass-rate",
        "0",
        "--quiet",
    )


def test_each_unit_run_has_its_cassette_and_replays_offline_identically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config, url = _record(tmp_path, monkeypatch)
    cassettes = tmp_path / "cassettes"
    stems = sorted(
        p.relative_to(cassettes).as_posix().removesuffix(".cassette.jsonl")
        for p in cassettes.rglob("*.cassette.jsonl")
    )
    records = sorted(
        name.removesuffix(".record.json") for name in records_of(tmp_path / "recorded")
    )
    # one cassette per run of each (workflow, case, target), beside its record
    assert stems == records
    assert len(stems) == len(CASES) * len(TARGETS) * REPEAT
    for stem in stems:
        header = json.loads(
            (cassettes / f"{stem}.cassette.jsonl").read_text().splitlines()[0]
        )
        _, case, _, _ = stem.split("/")
        assert header["case_id"] == case
        assert header["target"]["id"] in TARGETS

    port = int(url.rsplit(":", 1)[1].split("/", 1)[0])
    with ListenerOnPort(port) as listener:
        done = _replay(tmp_path, config, "replayed", cassettes)
        assert listener.accepted == 0
    assert done.returncode == 0, done.stderr
    before = records_of(tmp_path / "recorded")
    after = records_of(tmp_path / "replayed")
    assert sorted(before) == sorted(after)
    for name, record in before.items():
        assert comparable(after[name]) == comparable(record), name
        assert after[name]["case"]["id"] == record["case"]["id"]
        assert after[name]["target"]["id"] == record["target"]["id"]
        assert after[name]["replay"]["cassette_digest"] == record["cassette"]["digest"]


@pytest.mark.parametrize("moved", ["case", "target"])
def test_a_cassette_of_another_case_or_target_is_refused_naming_the_unit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moved: str
) -> None:
    config, _ = _record(tmp_path, monkeypatch)
    cassettes = tmp_path / "cassettes"
    swapped = tmp_path / "swapped"
    shutil.copytree(cassettes, swapped)
    # the unit folders: tickets/<case>/<target folder>/<NNN>
    targets = sorted(p.name for p in (swapped / "tickets" / "c-1").iterdir())
    source = swapped / "tickets" / "c-1" / targets[0] / "001.cassette.jsonl"
    if moved == "case":
        place = swapped / "tickets" / "c-2" / targets[0] / "001.cassette.jsonl"
    else:
        place = swapped / "tickets" / "c-1" / targets[1] / "001.cassette.jsonl"
    shutil.copyfile(source, place)

    done = _replay(tmp_path, config, "replayed", swapped)
    assert done.returncode == 2, done.stderr
    message = done.stderr
    assert "workflow 'tickets'" in message
    differs = message.split("recorded for another ", 1)[1].split(" (", 1)[0]
    if moved == "case":
        # a case's contract is its expansion: the contract differs too
        assert "case 'c-2' on target 'local:m1'" in message
        assert differs.endswith("case")
    else:
        assert "case 'c-1' on target 'local:m2'" in message
        assert differs == "target"
    assert VALUE not in message + done.stdout
    assert KEY not in message + done.stdout
    # nothing ran
    assert not (tmp_path / "replayed" / "runs").exists()
