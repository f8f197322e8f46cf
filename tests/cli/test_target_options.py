"""``akit workflow run --target ENTRY:MODEL`` and ``--agent MODULE:ATTR`` (SPEC 19).

Real offline runs through the CLI harness: the scripted provider (a script per
model) and agents written as modules in the test's folder. Every bad input exits
with its code, prints no traceback, and runs nothing.
"""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import pytest

from artemiskit.suites import load_suite_record
from tests._builders import PASSING_SCRIPT, write_workflow
from tests._cli import akit
from tests.suites._suites import FAILING_SCRIPT

AGENT_MODULE = """
import json

from artemiskit import TargetResponse, ToolCall, Usage

USAGE = Usage(input_tokens=10, output_tokens=5)


class Support:
    version = "3.2"

    async def respond(self, request):
        answered = sum(1 for m in request.messages if m.role == "assistant")
        if answered == 0:
            call = ToolCall(id="r", name="read_file",
                            arguments=json.dumps({"path": "docs/policy.md"}))
            return TargetResponse(tool_calls=(call,), usage=USAGE)
        if answered == 1:
            call = ToolCall(id="w", name="write_file", arguments=json.dumps(
                {"path": "out/summary.md", "content": "30 days"}))
            return TargetResponse(tool_calls=(call,), usage=USAGE)
        return TargetResponse(text="Done.", usage=USAGE)


def support_bot():
    return Support()


AGENTS = {"bot-a": support_bot, "bot-b": Support}
NOT_CALLABLE = 3


def leaky():
    raise RuntimeError("sk-SECRET-TOKEN")


def wrong():
    return "a string"
"""


def _workflow(folder: Path) -> Path:
    path = write_workflow(folder)
    weak = {"version": 1, "variants": [PASSING_SCRIPT, FAILING_SCRIPT]}
    (folder / "weak.script.yaml").write_text(json.dumps(weak), "utf-8")
    return path


def _agents(folder: Path, source: str = AGENT_MODULE) -> str:
    """Write an agent module under a name no other test imported; its name."""
    name = f"agents_{uuid.uuid4().hex[:12]}"
    (folder / f"{name}.py").write_text(source, "utf-8")
    return name


def _records(out: Path) -> list[dict[str, object]]:
    return [
        json.loads(p.read_text("utf-8"))
        for p in sorted((out / "runs").rglob("*.record.json"))
    ]


def test_two_targets_run_as_one_suite(tmp_path: Path) -> None:
    path = _workflow(tmp_path)
    done = akit(
        "workflow", "run", path, "--target", "scripted:agent", "--target",
        "scripted:weak", "--repeat", "2", "--output-dir", tmp_path / "out",
        "--min-pass-rate", "0.5",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    summary = load_suite_record(tmp_path / "out" / "suite.json")
    assert [(u["target"], u["pass_rate"]) for u in summary["units"]] == [
        ("scripted:agent", 1.0),
        ("scripted:weak", 0.5),
    ]
    assert "on scripted:weak: pass rate 50% (1/2)" in done.stderr


def test_one_target_replaces_the_workflow_target_in_a_single_run(
    tmp_path: Path,
) -> None:
    path = _workflow(tmp_path)
    record = tmp_path / "record.json"
    done = akit(
        "workflow", "run", path, "--target", "scripted:weak", "--output", record
    )
    assert done.returncode == 0, done.stderr
    saved = json.loads(record.read_text("utf-8"))
    assert saved["target"]["id"] == "scripted:weak"
    assert saved["target"]["model"] == "weak"


def test_several_targets_without_an_output_folder_are_refused(tmp_path: Path) -> None:
    path = _workflow(tmp_path)
    done = akit(
        "workflow", "run", path, "--target", "scripted:agent", "--target",
        "scripted:weak",
    )  # fmt: skip
    assert done.returncode == 2
    assert "--output-dir" in done.stderr


def test_an_entry_the_configuration_lacks_is_exit_2_listing_the_entries(
    tmp_path: Path,
) -> None:
    path = _workflow(tmp_path)
    config = tmp_path / "artemis.config.yaml"
    config.write_text(
        "providers:\n  local:\n    type: openai\n    base_url: http://127.0.0.1:9/v1\n",
        "utf-8",
    )
    for extra in ([], ["--output-dir", str(tmp_path / "out")]):
        done = akit(
            "workflow", "run", path, "--config", config, "--target", "nowhere:m",
            *extra,
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert "'nowhere:m'" in done.stderr
        assert "'local'" in done.stderr
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("value", ["openai", ":m", "a b:c", "scripted:"])
def test_a_malformed_target_is_exit_2(tmp_path: Path, value: str) -> None:
    path = _workflow(tmp_path)
    done = akit("workflow", "run", path, "--target", value)
    assert done.returncode == 2
    assert "ENTRY:MODEL" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_target_given_twice_is_exit_2(tmp_path: Path) -> None:
    path = _workflow(tmp_path)
    done = akit(
        "workflow", "run", path, "--target", "scripted:weak", "--target",
        "scripted:weak", "--output-dir", tmp_path / "out",
    )  # fmt: skip
    assert done.returncode == 2
    assert "given twice" in done.stderr


def test_an_agent_runs_in_a_suite_and_its_name_is_in_every_record(
    tmp_path: Path,
) -> None:
    path = _workflow(tmp_path)
    module = _agents(tmp_path)
    done = akit(
        "workflow", "run", path, "--agent", f"{module}:AGENTS", "--repeat", "2",
        "--output-dir", tmp_path / "out",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = _records(tmp_path / "out")
    assert len(records) == 4
    names = sorted(r["target"]["id"] for r in records)  # type: ignore[index]
    assert names == ["bot-a", "bot-a", "bot-b", "bot-b"]
    assert all(r["target"]["version"] == "3.2" for r in records)  # type: ignore[index]
    summary = load_suite_record(tmp_path / "out" / "suite.json")
    assert summary["settings"]["targets"] == ["bot-a", "bot-b"]


def test_one_agent_runs_a_single_run_named_by_its_factory(tmp_path: Path) -> None:
    path = _workflow(tmp_path)
    module = _agents(tmp_path)
    record = tmp_path / "record.json"
    done = akit(
        "workflow", "run", path, "--agent", f"{module}:support_bot",
        "--output", record, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(record.read_text("utf-8"))["target"]["id"] == "support_bot"


@pytest.mark.parametrize(
    ("attribute", "words"),
    [
        ("missing", "has no 'missing'"),
        ("NOT_CALLABLE", "neither a callable"),
        ("leaky", "raised RuntimeError"),
        ("wrong", "returned a str"),
    ],
)
def test_an_agent_that_cannot_be_made_is_exit_1_naming_it(
    tmp_path: Path, attribute: str, words: str
) -> None:
    path = _workflow(tmp_path)
    module = _agents(tmp_path)
    done = akit(
        "workflow", "run", path, "--agent", f"{module}:{attribute}",
        "--output-dir", tmp_path / "out", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert f"{module}:{attribute}" in done.stderr
    assert words in done.stderr
    assert "SECRET" not in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_an_agent_module_that_fails_to_import_is_exit_1_without_its_text(
    tmp_path: Path,
) -> None:
    path = _workflow(tmp_path)
    module = _agents(tmp_path, 'raise ValueError("sk-SECRET-TOKEN")\n')
    done = akit("workflow", "run", path, "--agent", f"{module}:x", cwd=tmp_path)
    assert done.returncode == 1
    assert f"cannot import module '{module}' (ValueError)" in done.stderr
    assert "SECRET" not in done.stderr
    assert "Traceback" not in done.stderr
    missing = akit("workflow", "run", path, "--agent", "no_such_module_xyz:x")
    assert missing.returncode == 1
    assert "no_such_module_xyz:x" in missing.stderr


def test_an_agent_reference_without_a_colon_is_exit_2(tmp_path: Path) -> None:
    path = _workflow(tmp_path)
    done = akit("workflow", "run", path, "--agent", "nocolon")
    assert done.returncode == 2
    assert "MODULE:ATTR" in done.stderr


def test_an_agent_under_ray_is_refused_before_anything_runs(tmp_path: Path) -> None:
    path = _workflow(tmp_path)
    module = _agents(tmp_path)
    done = akit(
        "workflow", "run", path, "--agent", f"{module}:support_bot",
        "--executor", "ray", "--output-dir", tmp_path / "out", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "the ray executor's workers, on other machines, cannot import it" in (
        done.stderr
    )
    assert not (tmp_path / "out").exists()


def test_a_run_paused_on_a_target_resumes_only_on_it(tmp_path: Path) -> None:
    path = _workflow(tmp_path)
    # The same script for both models: only the target tells them apart.
    shutil.copyfile(tmp_path / "agent.script.yaml", tmp_path / "weak.script.yaml")
    checkpoint = tmp_path / "ckpt"
    paused = akit(
        "workflow", "run", path, "--target", "scripted:weak",
        "--checkpoint-dir", checkpoint, "--pause-after-actions", "1",
    )  # fmt: skip
    assert paused.returncode == 10, paused.stderr
    refused = akit("workflow", "resume", path, "--checkpoint-dir", checkpoint)
    assert refused.returncode == 2, refused.stderr
    assert "incompatible_checkpoint" in refused.stderr
    record = tmp_path / "record.json"
    resumed = akit(
        "workflow", "resume", path, "--checkpoint-dir", checkpoint,
        "--target", "scripted:weak", "--output", record,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(record.read_text("utf-8"))["target"]["id"] == "scripted:weak"


def test_an_agent_runs_on_worker_processes_named_in_every_record(
    tmp_path: Path,
) -> None:
    """``--agent`` under ``--executor processes``: each worker imports it by name."""
    path = _workflow(tmp_path)
    module = _agents(tmp_path)
    done = akit(
        "workflow", "run", path, "--agent", f"{module}:AGENTS", "--repeat", "2",
        "--executor", "processes", "--output-dir", tmp_path / "out",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = _records(tmp_path / "out")
    names = sorted(r["target"]["id"] for r in records)  # type: ignore[index]
    assert names == ["bot-a", "bot-a", "bot-b", "bot-b"]
    summary = load_suite_record(tmp_path / "out" / "suite.json")
    assert summary["settings"]["executor"] == "processes"
