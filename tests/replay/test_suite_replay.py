"""A suite recorded against a stochastic model on 127.0.0.1, replayed offline (SPEC 22).

The model draws its tool call ids, the summary it writes, its last words and its
token counts at random, so the recorded runs differ from each other and only the
cassettes can reproduce them. The replay runs with the model server stopped and a
listener on its port that counts connections: no connection is attempted, and
every record (ids and times aside) and verdict equals the recorded one.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from artemiskit import ArtemisKit
from tests.providers._chat_server import ChatServer

from ._compare import comparable, records_of
from ._stochastic import ListenerOnPort, config_for, model_workflow, serve_stochastic

pytestmark = pytest.mark.anyio

REPEAT = 4
KEY = "sk-replay-SENTINEL-77aa"


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


async def test_a_recorded_suite_replays_offline_with_identical_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = tmp_path / "suite"
    model_workflow(suite / "a", "summarize")
    model_workflow(suite / "b", "summarize-again")
    cassettes = tmp_path / "cassettes"
    monkeypatch.setenv("TEST_REPLAY_KEY", KEY)
    with ChatServer() as server:
        serve_stochastic(server, 3 * 2 * REPEAT)
        config = config_for(tmp_path / "artemis.config.yaml", server.url)
        recorded = await ArtemisKit(config=config).run_suite(
            paths=suite,
            repeat=REPEAT,
            concurrency=2,
            min_pass_rate=0.0,
            output_dir=tmp_path / "recorded",
            record_cassettes=cassettes,
        )
        url = server.url
    assert recorded.summary["totals"]["runs_finished"] == 2 * REPEAT
    # the model is stochastic: the recorded runs are not all alike
    summaries = {
        json.dumps(comparable(record)["budget"]["used"])
        for record in records_of(tmp_path / "recorded").values()
    }
    assert len(summaries) > 1

    monkeypatch.delenv("TEST_REPLAY_KEY")  # a replay needs no credential
    with ListenerOnPort(_port(url)) as listener:
        replayed = await ArtemisKit(config=config).run_suite(
            paths=suite,
            repeat=REPEAT,
            concurrency=2,
            min_pass_rate=0.0,
            output_dir=tmp_path / "replayed",
            replay=cassettes,
        )
        assert listener.accepted == 0

    before = records_of(tmp_path / "recorded")
    after = records_of(tmp_path / "replayed")
    assert sorted(before) == sorted(after)
    for name, record in before.items():
        assert comparable(after[name]) == comparable(record), name
        assert after[name]["replay"]["cassette_digest"] == record["cassette"]["digest"]
        assert after[name]["replay"]["mode"] == "strict"
        assert after[name]["replay"]["fork_at"] is None
    verdicts = [
        (run.workflow, run.repetition, run.result.record.verdict.status)
        for run in recorded.runs
        if run.result is not None
    ]
    assert verdicts == [
        (run.workflow, run.repetition, run.result.record.verdict.status)
        for run in replayed.runs
        if run.result is not None
    ]
    assert replayed.exit_code == recorded.exit_code


async def test_recorded_cassettes_sit_beside_their_records_and_are_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = tmp_path / "suite"
    model_workflow(suite / "a", "summarize")
    cassettes = tmp_path / "cassettes"
    monkeypatch.setenv("TEST_REPLAY_KEY", KEY)
    with ChatServer() as server:
        serve_stochastic(server, 3 * 2)
        config = config_for(tmp_path / "artemis.config.yaml", server.url)
        await ArtemisKit(config=config).run_suite(
            paths=suite,
            repeat=2,
            min_pass_rate=0.0,
            output_dir=tmp_path / "out",
            record_cassettes=cassettes,
        )
    records = sorted(records_of(tmp_path / "out"))
    kept = sorted(
        p.relative_to(cassettes).as_posix().replace(".cassette.jsonl", ".record.json")
        for p in cassettes.rglob("*.cassette.jsonl")
    )
    assert kept == records == ["summarize/001.record.json", "summarize/002.record.json"]
    for path in [cassettes, *cassettes.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), path
    first = (cassettes / "summarize" / "001.cassette.jsonl").read_text().splitlines()
    header = json.loads(first[0])
    assert header["schema"] == "artemiskit.cassette"
    assert header["target"]["id"] == "local:m1"
    assert header["case_id"] is None
    assert [json.loads(line)["kind"] for line in first[1:]] == [
        "model",
        "model",
        "model",
        "end",
    ]


async def test_a_suite_records_and_replays_on_worker_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cassettes travel to workers as run options: recorded there, replayed there.

    The replay on worker processes equals the recorded runs and the replay on
    the local executor, and attempts no connection.
    """
    suite = tmp_path / "suite"
    model_workflow(suite / "a", "summarize")
    model_workflow(suite / "b", "summarize-again")
    cassettes = tmp_path / "cassettes"
    monkeypatch.setenv("TEST_REPLAY_KEY", KEY)
    with ChatServer() as server:
        serve_stochastic(server, 3 * 2 * 2)
        config = config_for(tmp_path / "artemis.config.yaml", server.url)
        recorded = await ArtemisKit(config=config).run_suite(
            paths=suite,
            repeat=2,
            concurrency=2,
            min_pass_rate=0.0,
            output_dir=tmp_path / "recorded",
            record_cassettes=cassettes,
            executor="processes",
        )
        url = server.url
    assert recorded.summary["totals"]["runs_finished"] == 4
    kept = sorted(p.relative_to(cassettes) for p in cassettes.rglob("*.jsonl"))
    assert len(kept) == 4
    for path in [cassettes, *cassettes.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), path

    monkeypatch.delenv("TEST_REPLAY_KEY")
    with ListenerOnPort(_port(url)) as listener:
        for executor in ("processes", "local"):
            replayed = await ArtemisKit(config=config).run_suite(
                paths=suite,
                repeat=2,
                concurrency=2,
                min_pass_rate=0.0,
                output_dir=tmp_path / executor,
                replay=cassettes,
                executor=executor,
            )
            assert replayed.exit_code == recorded.exit_code
        assert listener.accepted == 0
    before = records_of(tmp_path / "recorded")
    for executor in ("processes", "local"):
        after = records_of(tmp_path / executor)
        assert sorted(after) == sorted(before)
        for name, record in before.items():
            assert comparable(after[name]) == comparable(record), (executor, name)
            assert (
                after[name]["replay"]["cassette_digest"]
                == (record["cassette"]["digest"])
            )
