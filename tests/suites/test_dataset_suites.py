"""Workflows with cases as suites (SPEC 19): units, layout, selection, evidence.

A case's values never reach records, ``suite.json``, events or the CLI's output:
every case carries a sentinel string, and every file and stream is searched for it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from artemiskit import ArtemisKit, WorkflowError
from artemiskit.suites import load_suite_record
from tests._cli import akit
from tests.workflow._cases import dump

SENTINEL = "SENTINEL-CASE-VALUE-91c2"

WORKFLOW: dict[str, Any] = {
    "version": 1,
    "name": "triage",
    "dataset": "cases.jsonl",
    "target": {"provider": "scripted", "model": "agent"},
    "environment": {
        "kind": "simulated",
        "files": {"tickets/{{ id }}.md": "{{ request }}"},
    },
    "tools": [
        {"name": "read_file", "allow": {"paths": ["tickets/*.md"]}},
        {"name": "write_file", "allow": {"paths": ["routing/*.txt"]}},
    ],
    "conversation": {"turns": [{"user": "Route {{ id }}: {{ request }}"}]},
    "budgets": {"max_actions": 10, "timeout_ms": 60000},
    "outcomes": [
        {"id": "queue", "file": "routing/{{ id }}.txt", "equals": "{{ queue }}"}
    ],
}

USAGE = {"input_tokens": 10, "output_tokens": 5}
SCRIPT: dict[str, Any] = {
    "version": 1,
    "responses": [
        {
            "tool_calls": [
                {"name": "read_file", "arguments": {"path": "tickets/{{ id }}.md"}}
            ],
            "usage": USAGE,
        },
        {
            "tool_calls": [
                {
                    "name": "write_file",
                    "arguments": {
                        "path": "routing/{{ id }}.txt",
                        "content": "{{ queue }}",
                    },
                }
            ],
            "usage": USAGE,
        },
        {"text": "Routed {{ id }}: {{ request }}", "usage": USAGE},
    ],
    "cases": {
        "c-2": {
            "responses": [
                {
                    "tool_calls": [
                        {
                            "name": "write_file",
                            "arguments": {
                                "path": "routing/c-2.txt",
                                "content": "wrong",
                            },
                        }
                    ],
                    "usage": USAGE,
                },
                {"text": "Done.", "usage": USAGE},
            ]
        }
    },
}


def suite_folder(tmp_path: Path, cases: int = 3) -> Path:
    folder = tmp_path / "wf"
    folder.mkdir()
    rows = [
        {"id": f"c-{n}", "request": f"{SENTINEL} ticket {n}", "queue": f"q{n % 2}"}
        for n in range(1, cases + 1)
    ]
    (folder / "cases.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (folder / "workflow.yaml").write_text(dump(WORKFLOW))
    (folder / "agent.script.yaml").write_text(json.dumps(SCRIPT))
    return folder / "workflow.yaml"


def every_text(folder: Path) -> str:
    return "\n".join(p.read_text() for p in sorted(folder.rglob("*")) if p.is_file())


def test_each_case_is_a_unit_with_its_own_folder(tmp_path: Path) -> None:
    path = suite_folder(tmp_path)
    out = tmp_path / "out"
    done = akit("workflow", "run", path, "--output-dir", out, "--repeat", "2")
    assert done.returncode == 8, done.stderr  # c-2 fails by its own script
    records = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.record.json"))
    assert records == [
        f"runs/triage/c-{n}/{r:03d}.record.json" for n in (1, 2, 3) for r in (1, 2)
    ]
    summary = load_suite_record(out / "suite.json")
    units = {u["case"]: (u["runs"], u["passed"], u["failed"]) for u in summary["units"]}
    assert units == {"c-1": (2, 2, 0), "c-2": (2, 0, 2), "c-3": (2, 2, 0)}
    assert summary["settings"]["cases"] is None
    (workflow,) = summary["workflows"]
    assert [(r["case"], r["repetition"]) for r in workflow["runs"]] == [
        (f"c-{n}", r) for n in (1, 2, 3) for r in (1, 2)
    ]
    record = json.loads((out / "runs/triage/c-3/001.record.json").read_text())
    assert record["case"]["id"] == "c-3"
    assert record["case"]["digest"].startswith("sha256:")
    assert "triage[c-2] #001: failed" in done.stderr
    assert SENTINEL not in every_text(out) + done.stdout + done.stderr


def test_case_selects_units_and_an_unknown_id_runs_nothing(tmp_path: Path) -> None:
    path = suite_folder(tmp_path)
    out = tmp_path / "out"
    done = akit("workflow", "run", path, "--output-dir", out, "--case", "c-3")
    assert done.returncode == 0, done.stderr
    summary = load_suite_record(out / "suite.json")
    assert [u["case"] for u in summary["units"]] == ["c-3"]
    assert summary["settings"]["cases"] == {
        "ids": ["c-3"],
        "sample": None,
        "seed": None,
    }
    missing = tmp_path / "never"
    done = akit("workflow", "run", path, "--output-dir", missing, "--case", "c-9")
    assert done.returncode == 2
    assert "'c-9'" in done.stderr
    assert not missing.exists()


def test_a_sample_is_reproducible(tmp_path: Path) -> None:
    path = suite_folder(tmp_path, cases=12)

    async def picked(seed: int) -> list[str]:
        result = await ArtemisKit().run_suite(paths=[path], sample=4, seed=seed)
        return [u["case"] for u in result.summary["units"]]

    first = anyio.run(picked, 5)
    assert len(first) == 4
    assert anyio.run(picked, 5) == first


def test_one_case_as_a_single_run(tmp_path: Path) -> None:
    path = suite_folder(tmp_path)
    record_path = tmp_path / "record.json"
    done = akit("workflow", "run", path, "--case", "c-1", "--output", record_path)
    assert done.returncode == 0, done.stderr
    record = json.loads(record_path.read_text())
    assert record["case"]["id"] == "c-1"
    assert SENTINEL not in record_path.read_text() + done.stdout + done.stderr
    done = akit("workflow", "run", path)
    assert done.returncode == 2
    assert "one case at a time" in done.stderr


def test_events_never_carry_case_values(tmp_path: Path) -> None:
    path = suite_folder(tmp_path)

    async def main() -> list[str]:
        session = await ArtemisKit().create_suite_session(paths=[path])
        seen: list[str] = []

        async def read() -> None:
            async for event in session.events():
                seen.append(repr(event))

        async with anyio.create_task_group() as group:
            group.start_soon(read)
            await session.run()
        return seen

    seen = anyio.run(main)
    assert any("case='c-2'" in line for line in seen)
    assert SENTINEL not in "\n".join(seen)


def test_a_script_name_a_case_lacks_is_refused_before_any_run(tmp_path: Path) -> None:
    path = suite_folder(tmp_path)
    script = dict(SCRIPT)
    script["responses"] = [{"text": "{{ missing_name }}", "usage": USAGE}]
    (path.parent / "agent.script.yaml").write_text(json.dumps(script))
    out = tmp_path / "out"
    with pytest.raises(WorkflowError, match="invalid"):
        anyio.run(lambda: ArtemisKit().run_suite(paths=[path], output_dir=out))
    assert not out.exists()


def test_a_sample_depends_on_its_seed_and_the_default_seed_is_0() -> None:
    from artemiskit.suites._selection import CaseSelection, select_cases

    ids = tuple(f"c{i:02d}" for i in range(12))

    def sample(seed: int | None) -> tuple[str, ...]:
        return select_cases(ids, CaseSelection(sample=4, seed=seed))

    # The same seed picks the same cases in every version (Python's Random).
    assert sample(0) == ("c00", "c04", "c06", "c11")
    assert sample(None) == sample(0)
    assert sample(1) == ("c01", "c02", "c04", "c09")
    assert sample(7) == ("c00", "c02", "c05", "c06")
    # suite.json's settings.cases records the seed a sample used.
    assert CaseSelection(sample=4).as_setting() == {
        "ids": None,
        "sample": 4,
        "seed": 0,
    }
    assert CaseSelection(sample=4, seed=7).as_setting() == {
        "ids": None,
        "sample": 4,
        "seed": 7,
    }
    assert CaseSelection(ids=("c01",)).as_setting() == {
        "ids": ["c01"],
        "sample": None,
        "seed": None,
    }
