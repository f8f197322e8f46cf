"""Predicates, trajectories, scorers and judges at validation (SPEC 20, 26): bad input.

Each refusal is exit 2 at validation, located at FILE:LINE:COL and the key path; the
accepted shapes structure into the model as written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from artemiskit import Score, Scorer, WorkflowError, parse_agent_workflow
from artemiskit.workflow import (
    FileOutcome,
    FinalResponseOutcome,
    JudgeOutcome,
    ScorerOutcome,
    StateOutcome,
    ToolCalledOutcome,
    TrajectoryOutcome,
)
from artemiskit_cli._main import cli as main
from tests._builders import workflow_dict


async def _score(evidence: Any, params: Any) -> Score:
    return Score(status="passed", reason="ok")


TONE = Scorer(
    name="tone",
    version="2",
    handler=_score,
    params_schema={
        "type": "object",
        "properties": {"max_words": {"type": "integer", "minimum": 1}},
        "required": ["max_words"],
        "additionalProperties": False,
    },
)
DRAFT_TOOLS = [
    {"name": "read_file", "allow": {"paths": ["docs/**"]}},
    {"name": "write_file", "allow": {"paths": ["out/*.md"]}},
    {"name": "draft_message", "allow": {"recipients": ["*@example.com"]}},
]


def text_of(*outcomes: dict[str, Any]) -> str:
    data = workflow_dict(
        tools=DRAFT_TOOLS,
        outcomes=[{"id": f"o{i}", **o} for i, o in enumerate(outcomes)],
    )
    return json.dumps(data, indent=2)


def problems(*outcomes: dict[str, Any], **options: Any) -> list[tuple[str, str]]:
    with pytest.raises(WorkflowError) as caught:
        parse_agent_workflow(text_of(*outcomes), source="w.yaml", **options)
    found = caught.value.problems
    assert all(p.line is not None and p.column is not None for p in found)
    return [(p.path or "", p.message) for p in found]


def test_every_predicate_shape_structures_as_written() -> None:
    workflow = parse_agent_workflow(
        text_of(
            {"state": "records.tickets.T-1.amount", "gt": 10, "lte": 100},
            {"state": "drafts", "length": {"min": 1, "max": 2}},
            {"state": "records", "all": [{"exists": True}, {"not": {"equals": 80}}]},
            {"file": "out/summary.md", "contains": "30 days", "not_contains": ["x"]},
            {"final_response": {"matches": "(?i)done", "json": {"a.b": {"gte": 1}}}},
            {
                "tool_called": "draft_message",
                "arguments": {"to": {"matches": "@example\\.com$"}, "subject": "Hi"},
                "max": 1,
            },
            {
                "trajectory": {
                    "steps": [
                        {"tool": "read_file"},
                        {"tool": "draft_message", "status": "denied"},
                    ],
                    "mode": "prefix",
                }
            },
            {"scorer": "tone", "with": {"max_words": 80}},
            {
                "judge": {
                    "rubric": "r",
                    "threshold": 0.5,
                    "sees": ["drafts", {"files": ["out/*.md"]}],
                    "samples": 3,
                }
            },
            {"state": "drafts.0", "json_schema": {"type": "object"}},
        ),
        scorers=[TONE],
    )
    kinds = [type(o) for o in workflow.outcomes]
    assert kinds[:9] == [
        StateOutcome,
        StateOutcome,
        StateOutcome,
        FileOutcome,
        FinalResponseOutcome,
        ToolCalledOutcome,
        TrajectoryOutcome,
        ScorerOutcome,
        JudgeOutcome,
    ]
    state = workflow.outcomes[0]
    assert isinstance(state, StateOutcome)
    assert state.predicate == {"gt": 10, "lte": 100}
    scorer = workflow.outcomes[7]
    assert isinstance(scorer, ScorerOutcome)
    assert scorer.params == {"max_words": 80}
    judge = workflow.outcomes[8]
    assert isinstance(judge, JudgeOutcome)
    assert judge.judge.samples == 3
    assert [s.kind for s in judge.judge.sees] == ["drafts", "files"]


@pytest.mark.parametrize(
    ("outcome", "path", "rule"),
    [
        ({"state": "records", "gtt": 3}, "$.outcomes[0].gtt", "not a known key"),
        (
            {
                "record": {"table": "t", "id": "1"},
                "fields": {"a": {"all": [{"gtt": 1}]}},
            },
            "$.outcomes[0].fields.a.all[0].gtt",
            "is not a predicate",
        ),
        ({"file": "out/a.md", "gt": 3}, "$.outcomes[0].gt", "compares numbers"),
        (
            {"final_response": {"lt": 3}},
            "$.outcomes[0].final_response.lt",
            "compares numbers",
        ),
        (
            {"tool_called": "draft_message", "arguments": {"to": {"gte": 2}}},
            "$.outcomes[0].arguments.to.gte",
            "compares numbers",
        ),
        ({"state": "records", "gt": "ten"}, "$.outcomes[0].gt", "must be a number"),
        (
            {"state": "records", "json_schema": {"type": "nonsense"}},
            "$.outcomes[0].json_schema",
            "not a valid JSON Schema",
        ),
        (
            {"state": "records", "json_schema": {"pattern": "(a+)+$"}},
            "$.outcomes[0].json_schema",
            "backtracking",
        ),
        (
            {"state": "records", "json_schema": {"$ref": "https://example.com/s"}},
            "$.outcomes[0].json_schema",
            "refers outside itself",
        ),
        (
            {"file": "out/a.md", "matches": "(a)\\1"},
            "$.outcomes[0].matches",
            "linear-time engine (RE2)",
        ),
        (
            {"final_response": {"json": {"a": {"matches": "(?=x)y"}}}},
            "$.outcomes[0].final_response.json.a.matches",
            "linear-time engine (RE2)",
        ),
        (
            {"state": "records", "length": {"min": 3, "max": 1}},
            "$.outcomes[0].length.max",
            "must be ≥ min",
        ),
        (
            {"state": "records", "not": [{"equals": 1}, 3]},
            "$.outcomes[0].not[1]",
            "predicate mapping",
        ),
        (
            {"record": {"table": "t", "id": "1"}, "fields": {"a": {"gt": 1, "x": 2}}},
            "$.outcomes[0].fields.a",
            "mixes predicate keys",
        ),
        ({"state": "records"}, "$.outcomes[0]", "needs a predicate"),
        (
            {"judge": {"rubric": "r", "threshold": 0.5, "samples": 0}},
            "$.outcomes[0].judge.samples",
            "must be ≥ 1",
        ),
        (
            {"judge": {"rubric": "r", "threshold": 0.5, "sees": ["drafts", "drafts"]}},
            "$.outcomes[0].judge.sees[1]",
            "repeats drafts",
        ),
        (
            {"judge": {"rubric": "r", "threshold": 0.5, "sees": [{"state": ["x.y"]}]}},
            "$.outcomes[0].judge.sees[0].state[0]",
            "dotted path",
        ),
        (
            {"trajectory": {"steps": [{"tool": "read_file", "status": "ok"}]}},
            "$.outcomes[0].trajectory.steps[0].status",
            "must be one of",
        ),
    ],
)
def test_bad_predicates_are_refused_at_their_key_path(
    outcome: dict[str, Any], path: str, rule: str
) -> None:
    found = problems(outcome)
    assert any(p == path and rule in m for p, m in found), found


def test_a_scorer_outcome_is_checked_against_the_registered_scorers() -> None:
    unknown = problems({"scorer": "nope"}, scorers=[TONE])
    assert unknown[0][0] == "$.outcomes[0].scorer"
    assert "not registered" in unknown[0][1]
    assert "tone" in unknown[0][1]
    bad_with = problems({"scorer": "tone", "with": {"max_words": 0}}, scorers=[TONE])
    assert bad_with == [("$.outcomes[0].with.max_words", "must be ≥ 1")]
    missing = problems({"scorer": "tone"}, scorers=[TONE])
    assert missing == [("$.outcomes[0].with.max_words", "is required")]
    # without scorers, scorer outcomes are not checked
    assert parse_agent_workflow(text_of({"scorer": "nope"})).outcomes


def test_the_cli_locates_every_refusal_and_reports_unchecked_scorers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(
        text_of(
            {"state": "records", "gt": "x"},
            {"file": "out/a.md", "matches": "(a)\\1"},
            {"scorer": "tone", "with": {"max_words": 1}},
            {"tool_called": "draft_message", "arguments": {"to": {"gte": 2}}},
        )
    )
    runner = CliRunner()
    done = runner.invoke(main, ["scenario", "validate", str(path)])
    assert done.exit_code == 2
    lines = [line for line in done.stderr.splitlines() if line.startswith(str(path))]
    assert any("$.outcomes[0].gt: must be a number" in line for line in lines), lines
    assert any("$.outcomes[1].matches" in line and "RE2" in line for line in lines)
    assert any(
        "$.outcomes[3].arguments.to.gte: gte compares numbers" in line for line in lines
    ), lines
    assert all(line.split(":")[1].isdigit() for line in lines)

    path.write_text(text_of({"scorer": "tone", "with": {"max_words": 1}}))
    valid = runner.invoke(main, ["scenario", "validate", str(path)])
    assert valid.exit_code == 0, valid.output
    assert "unchecked: scorer outcomes o0" in valid.stderr

    (tmp_path / "my_scorers.py").write_text(
        "from tests.workflow.test_predicate_validation import TONE\nSCORERS = [TONE]\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))
    checked = runner.invoke(
        main, ["scenario", "validate", str(path), "--scorers", "my_scorers:SCORERS"]
    )
    assert checked.exit_code == 0, checked.output
    assert "unchecked" not in checked.stderr
    path.write_text(text_of({"scorer": "tone"}))
    refused = runner.invoke(
        main, ["scenario", "validate", str(path), "--scorers", "my_scorers:SCORERS"]
    )
    assert refused.exit_code == 2
    assert "$.outcomes[0].with.max_words: is required" in refused.stderr
    bad_reference = runner.invoke(
        main, ["scenario", "validate", str(path), "--scorers", "my_scorers:NOPE"]
    )
    assert bad_reference.exit_code == 2
    assert "has no 'NOPE'" in bad_reference.stderr
