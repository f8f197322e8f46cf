"""The prompt-response store, called directly: saving, history, baselines.

`tests/prompt_response/test_store_files.py` meets the store through `akit`; these
check each of its answers exactly (its messages, the history of a red-team run,
a baseline's round trip), so a changed message or field is a failing test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from artemiskit import FileAccessError
from artemiskit.prompt_response import LocalStorage, read_manifest_file
from artemiskit.prompt_response._manifest import manifest_from_dict
from artemiskit.prompt_response._storage import Baseline, RunSummary

GOLDEN = Path(__file__).parent / "golden" / "manifest.json"


def _data(run_id: str = "run-1", **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text("utf-8"))
    data.update({"run_id": run_id, "start_time": "2026-01-01T00:00:00Z", **changes})
    return data


def _baseline(**changes: Any) -> Baseline:
    fields: dict[str, Any] = {
        "scenario": "golden",
        "run_id": "run-1",
        "created_at": "2026-01-01T00:00:00Z",
        "success_rate": 0.5,
        "median_latency_ms": 12.5,
        "total_tokens": 300,
        "passed_cases": 1,
        "failed_cases": 1,
        "total_cases": 2,
    }
    return Baseline(**{**fields, **changes})


def test_a_saved_manifest_reads_back_and_lists_in_history(tmp_path: Path) -> None:
    store = LocalStorage(tmp_path)
    path = store.save(manifest_from_dict(_data()))
    assert path == tmp_path / "default" / "run-1.json"
    assert read_manifest_file(path).run_id == "run-1"
    assert store.load("run-1").run_id == "run-1"
    assert store.runs() == [
        RunSummary(
            run_id="run-1",
            scenario="golden",
            success_rate=0.6666666666666666,
            created_at="2026-01-01T00:00:00Z",
            type=None,
            estimated_cost_usd=0.001338,
            project="default",
        )
    ]


def test_history_gives_a_red_team_runs_defense_rate(tmp_path: Path) -> None:
    folder = tmp_path / "default"
    folder.mkdir()
    data = _data("red-1", type="redteam")
    data["metrics"] = {**data["metrics"], "defense_rate": 0.25, "success_rate": 0.9}
    (folder / "red-1.json").write_text(json.dumps(data), "utf-8")
    plain = _data("plain-1", start_time="2026-01-02T00:00:00Z")
    (folder / "plain-1.json").write_text(json.dumps(plain), "utf-8")
    runs = LocalStorage(tmp_path).runs()
    assert [(r.run_id, r.type, r.success_rate) for r in runs] == [
        ("plain-1", None, 0.6666666666666666),
        ("red-1", "redteam", 0.25),
    ]
    assert [r.run_id for r in LocalStorage(tmp_path).runs(limit=1)] == ["plain-1"]
    with pytest.raises(ValueError, match=r"^run red-1 is a redteam run, not a plain"):
        LocalStorage(tmp_path).load("red-1")


def test_a_run_id_that_is_not_a_file_name_is_refused(tmp_path: Path) -> None:
    manifest = manifest_from_dict(_data("../x"))
    with pytest.raises(FileAccessError) as caught:
        LocalStorage(tmp_path).save(manifest)
    assert caught.value.message == "the run id is not a safe file name"
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(_data("a/b")), "utf-8")
    expected = f"{odd}: runId is not a run id (1 to 64 letters, digits, '-' or '_')"
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        read_manifest_file(odd)
    assert list(tmp_path.iterdir()) == [odd]


def test_a_manifest_that_cannot_be_written_names_the_file_and_why(
    tmp_path: Path,
) -> None:
    (tmp_path / "default").write_text("a file where the project folder goes", "utf-8")
    with pytest.raises(FileAccessError) as caught:
        LocalStorage(tmp_path).save(manifest_from_dict(_data()))
    assert caught.value.reason == "persistence_failed"
    assert caught.value.message.startswith(
        f"{tmp_path / 'default' / 'run-1.json'}: cannot save the manifest ("
    )
    assert caught.value.message.endswith(")")
    assert "None" not in caught.value.message


def test_a_baseline_round_trips_through_its_file(tmp_path: Path) -> None:
    store = LocalStorage(tmp_path)
    older = _baseline(scenario="a", created_at="2026-01-01T00:00:00Z")
    newer = _baseline(scenario="b", created_at="2026-02-01T00:00:00Z", tag="v2")
    store.set_baseline(older)
    store.set_baseline(newer)
    assert store.baselines() == [newer, older]
    assert store.baseline("a") == older
    assert store.baseline("nowhere") is None
    saved = json.loads(store.baselines_path.read_text("utf-8"))
    assert saved["version"] == "1.0"
    assert saved["baselines"]["b"] == {
        "scenario": "b",
        "runId": "run-1",
        "createdAt": "2026-02-01T00:00:00Z",
        "metrics": {
            "successRate": 0.5,
            "medianLatencyMs": 12.5,
            "totalTokens": 300,
            "passedCases": 1,
            "failedCases": 1,
            "totalCases": 2,
        },
        "tag": "v2",
    }
    assert "tag" not in saved["baselines"]["a"]
    assert store.remove_baseline("a") is True
    assert store.remove_baseline("a") is False
    assert store.baselines() == [newer]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tag": 3}, "tag must be a string"),
        ({"scenario": None}, "scenario must be a string"),
        ({"runId": 1}, "runId must be a string"),
        ({"createdAt": []}, "createdAt must be a string"),
        ({"metrics": None}, "must be an object with metrics"),
        ({"metrics": {"successRate": 1}}, "metrics.medianLatencyMs must be a number"),
    ],
)
def test_a_malformed_baseline_entry_names_its_field(
    change: dict[str, Any], message: str
) -> None:
    entry = {**_baseline().to_dict(), **change}
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        Baseline.from_dict(entry)


def test_every_baseline_metric_is_read_from_its_own_field() -> None:
    entry = _baseline().to_dict()
    entry["metrics"] = {
        "successRate": 0.25,
        "medianLatencyMs": 7.5,
        "totalTokens": 11,
        "passedCases": 3,
        "failedCases": 4,
        "totalCases": 7,
    }
    read = Baseline.from_dict({**entry, "tag": "t"})
    assert attrs.asdict(read) == {
        "scenario": "golden",
        "run_id": "run-1",
        "created_at": "2026-01-01T00:00:00Z",
        "success_rate": 0.25,
        "median_latency_ms": 7.5,
        "total_tokens": 11,
        "passed_cases": 3,
        "failed_cases": 4,
        "total_cases": 7,
        "tag": "t",
    }


def test_a_baselines_file_that_cannot_be_written_says_so(tmp_path: Path) -> None:
    (tmp_path / ".artemis").write_text("not a folder", "utf-8")
    store = LocalStorage(tmp_path)
    with pytest.raises(FileAccessError) as caught:
        store._write_baselines({})
    assert caught.value.message.startswith(f"{store.baselines_path}: cannot write (")
