"""docs/outcomes.md: the worked example of each outcome kind runs, and passes.

Every ``yaml`` block of the page's "kinds" section is an ``outcomes:`` list written
against the support-agent example. All of them replace that workflow's outcomes and
run against its well-behaved scripted agent, with its scorer and a judge that reads
what ``sees`` gives it: each example passes, so none is a shape that only validates.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from artemiskit import (
    ArtemisKit,
    JudgeSettings,
    TargetRequest,
    TargetResponse,
    Usage,
    parse_agent_workflow,
)
from artemiskit.workflow import parse_yaml
from tests.examples._blocks import ROOT, page_blocks

PAGE = ROOT / "docs" / "outcomes.md"
KINDS = (
    "file",
    "record",
    "state",
    "tool_called",
    "tool_not_called",
    "final_response",
    "trajectory",
    "scorer",
    "judge",
)
EXAMPLE = ROOT / "examples" / "support_agent"
sys.path.insert(0, str(ROOT))

from examples.support_agent.support_scorers import SCORERS  # noqa: E402


def kind_examples() -> list[dict[str, Any]]:
    text = PAGE.read_text("utf-8")
    start = text.count("\n", 0, text.index("## The kinds")) + 1
    outcomes: list[dict[str, Any]] = []
    for block in page_blocks(PAGE):
        if (
            block.language == "yaml"
            and block.line > start
            and "outcomes:" in block.body
        ):
            outcomes += parse_yaml(block.body, source=block.where).data["outcomes"]
    return outcomes


class ReadingJudge:
    async def respond(self, request: TargetRequest) -> TargetResponse:
        context = request.messages[-1].content or ""
        good = "sorry" in context.lower() and "EUR" in context
        return TargetResponse(
            text='{"score": %s}' % (0.9 if good else 0.1),
            usage=Usage(input_tokens=10, output_tokens=2),
        )


def test_each_kind_has_a_worked_example() -> None:
    kinds = {next(k for k in KINDS if k in o) for o in kind_examples()}
    assert kinds == set(KINDS)


async def test_every_worked_example_passes_on_the_support_agent() -> None:
    text = (EXAMPLE / "workflow.yaml").read_text("utf-8")
    data = parse_yaml(text, source="workflow.yaml").data
    data["outcomes"] = kind_examples()
    workflow = parse_agent_workflow(json.dumps(data), scorers=SCORERS)
    judge = JudgeSettings(target=ReadingJudge(), provider="rules", model="drafts")
    result = await ArtemisKit(scorers=SCORERS).run_workflow(
        workflow=workflow, fixture_root=EXAMPLE, judge=judge
    )
    failing = [
        (r.id, r.status, r.reason)
        for r in result.record.task_verification.requirements
        if r.status != "passed"
    ]
    assert failing == []
    assert result.record.exit_code == 0


@pytest.mark.parametrize("path", [PAGE])
def test_the_page_names_every_predicate(path: Path) -> None:
    from artemiskit.workflow._predicates import PREDICATE_KEYS

    text = path.read_text("utf-8")
    for key in PREDICATE_KEYS:
        assert f"| `{key}`" in text or f"`{key}` /" in text or f"/ `{key}`" in text, key
