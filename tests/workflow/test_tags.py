"""``tags:``: short labels that select workflows, validated like any key.

Tags are part of the contract (and so of its digest), but a workflow without
``tags:`` keeps the digest it had before the key existed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from artemiskit import WorkflowError, load_agent_workflow
from artemiskit.workflow import parse_agent_workflow
from tests._cli import akit
from tests.workflow._cases import BASE, dump

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: The digest `examples/flaky/workflow.yaml` had before ``tags:`` existed.
FLAKY_DIGEST = "sha256:3c68702df6386b889c582097157412d4c3bab37f1a278d8d6574e0e24744858f"


def with_tags(tags: Any) -> str:
    data = {key: value for key, value in BASE.items() if key != "environment"}
    return dump({**data, "tags": tags})


def test_tags_are_kept_in_order() -> None:
    workflow = parse_agent_workflow(with_tags(["smoke", "billing-v2", "_slow"]))
    assert workflow.tags == ("smoke", "billing-v2", "_slow")


def test_tags_default_to_none() -> None:
    workflow = parse_agent_workflow(dump(BASE | {"environment": {}}))
    assert workflow.tags == ()


@pytest.mark.parametrize(
    ("tags", "path", "rule"),
    [
        ("smoke", "$.tags", "must be a list"),
        ([3], "$.tags[0]", "must be a string"),
        (["two words"], "$.tags[0]", "must start with a letter or '_'"),
        (["9lives"], "$.tags[0]", "must start with a letter or '_'"),
        ([""], "$.tags[0]", "must not be empty"),
        (["x" * 65], "$.tags[0]", "at most 64 characters"),
        ([f"t{n}" for n in range(33)], "$.tags", "at most 32 items"),
        (["smoke", "fast", "smoke"], "$.tags[2]", "repeats the tag of $.tags[0]"),
    ],
    ids=[
        "not-list",
        "not-string",
        "space",
        "digit-first",
        "empty",
        "long",
        "many",
        "repeat",
    ],
)
def test_invalid_tags_are_located(tags: Any, path: str, rule: str) -> None:
    with pytest.raises(WorkflowError) as caught:
        parse_agent_workflow(with_tags(tags), source="w.yaml")
    [problem] = caught.value.problems
    assert problem.path == path
    assert rule in problem.message
    assert problem.line is not None
    assert problem.column is not None


def test_cli_reports_a_bad_tag_as_file_line_col(tmp_path: Path) -> None:
    workflow = tmp_path / "workflow.yaml"
    workflow.write_text(with_tags(["ok", "not ok"]), encoding="utf-8")
    done = akit("scenario", "validate", workflow)
    assert done.returncode == 2
    assert f"{workflow}:" in done.stderr
    assert "$.tags[1]" in done.stderr
    assert "Traceback" not in done.stderr


async def test_a_workflow_without_tags_keeps_its_digest(tmp_path: Path) -> None:
    from artemiskit import ArtemisKit
    from artemiskit.engine._evidence import workflow_digest
    from artemiskit.workflow import load_agent_workflow

    path = EXAMPLES / "flaky" / "workflow.yaml"
    # The whole workflow's digest (what a checkpoint binds) is unchanged; the
    # record now carries the contract digest, which leaves the target out.
    assert workflow_digest(await load_agent_workflow(path)) == FLAKY_DIGEST
    result = await ArtemisKit().run_workflow(workflow=path)
    assert result.record.workflow.digest != FLAKY_DIGEST


async def test_tags_are_part_of_the_digest(tmp_path: Path) -> None:
    source = EXAMPLES / "flaky"
    for name in ("workflow.yaml", "answer.script.yaml"):
        (tmp_path / name).write_bytes((source / name).read_bytes())
    tagged = tmp_path / "workflow.yaml"
    tagged.write_text(tagged.read_text("utf-8") + "tags: [smoke]\n", "utf-8")
    from artemiskit import ArtemisKit

    result = await ArtemisKit().run_workflow(workflow=tagged)
    assert (await load_agent_workflow(tagged)).tags == ("smoke",)
    assert result.record.workflow.digest != FLAKY_DIGEST
