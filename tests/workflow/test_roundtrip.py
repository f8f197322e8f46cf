"""`Workflow` round-trips exactly through the project's converter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings, strategies as st

from artemiskit._common._converter import CONVERTER
from artemiskit.workflow import (
    Budgets,
    Conversation,
    Document,
    EnvironmentSpec,
    Fault,
    FileOutcome,
    FinalResponseCheck,
    FinalResponseOutcome,
    InitialState,
    JudgeOutcome,
    JudgeSight,
    JudgeSpec,
    McpResource,
    McpToolRef,
    Policy,
    RecordOutcome,
    RecordRef,
    ScorerOutcome,
    StateOutcome,
    TargetParameters,
    TargetSpec,
    ToolAllow,
    ToolCalledOutcome,
    ToolDeclaration,
    ToolNotCalledOutcome,
    ToolRetryPolicy,
    Trajectory,
    TrajectoryOutcome,
    TrajectoryStep,
    Turn,
    Workflow,
    parse_agent_workflow,
)
from examples.custom_tool.order_tools import TOOLS as CUSTOM_TOOLS

ROOT = Path(__file__).resolve().parents[2]
TEXT = st.text(max_size=12)
NAME = st.text(min_size=1, max_size=8)
JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3)
    ),
    max_leaves=6,
)
INT = st.integers(min_value=0, max_value=10_000)
GLOBS = st.none() | st.lists(NAME, min_size=1, max_size=3).map(tuple)
COUNTS = st.none() | INT

#: Predicates on text as validation leaves them (no null operand, no empty list).
TEXT_PREDICATES = st.fixed_dictionaries(
    {},
    optional={
        "exists": st.just(True),
        "absent": st.just(True),
        "contains": st.lists(TEXT, min_size=1, max_size=2) | NAME,
        "not_contains": st.lists(TEXT, min_size=1, max_size=2),
        "equals": TEXT,
        "matches": NAME,
        "length": st.just({"min": 1, "max": 9}),
    },
)
VALUE_PREDICATES = st.fixed_dictionaries(
    {},
    optional={
        "equals": JSON,
        "not_equals": JSON,
        "one_of": st.lists(JSON, min_size=1, max_size=2),
        "gt": INT,
        "lte": st.floats(0, 1),
        "json_schema": st.just({"type": "object"}),
        "all": st.just([{"gt": 1}, {"lt": 5}]),
        "any": st.just({"absent": True}),
        "not": st.just({"equals": 80}),
    },
)
ARGUMENTS = st.none() | st.dictionaries(NAME, JSON | VALUE_PREDICATES, max_size=2)

OUTCOMES = st.one_of(
    st.builds(FileOutcome, id=NAME, file=NAME, predicate=TEXT_PREDICATES),
    st.builds(
        RecordOutcome,
        id=NAME,
        record=st.builds(RecordRef, table=NAME, id=NAME),
        fields=st.dictionaries(NAME, JSON, max_size=2),
    ),
    st.builds(StateOutcome, id=NAME, state=NAME, predicate=VALUE_PREDICATES),
    st.builds(
        ToolCalledOutcome,
        id=NAME,
        tool_called=NAME,
        min=COUNTS,
        max=COUNTS,
        arguments=ARGUMENTS,
    ),
    st.builds(ToolNotCalledOutcome, id=NAME, tool_not_called=NAME, arguments=ARGUMENTS),
    st.builds(
        FinalResponseOutcome,
        id=NAME,
        final_response=st.builds(
            FinalResponseCheck,
            predicate=TEXT_PREDICATES,
            json=st.none() | st.dictionaries(NAME, JSON, min_size=1, max_size=2),
        ),
    ),
    st.builds(
        TrajectoryOutcome,
        id=NAME,
        trajectory=st.builds(
            Trajectory,
            steps=st.lists(
                st.builds(
                    TrajectoryStep,
                    tool=NAME,
                    arguments=ARGUMENTS,
                    status=st.none()
                    | st.sampled_from(["succeeded", "failed", "denied"]),
                ),
                min_size=1,
                max_size=3,
            ).map(tuple),
            mode=st.sampled_from(["subsequence", "prefix", "exact"]),
        ),
    ),
    st.builds(
        ScorerOutcome,
        id=NAME,
        scorer=NAME,
        params=st.dictionaries(NAME, JSON, max_size=2),
    ),
    st.builds(
        JudgeOutcome,
        id=NAME,
        judge=st.builds(
            JudgeSpec,
            rubric=TEXT,
            threshold=st.floats(0, 1),
            sees=st.lists(
                st.builds(JudgeSight, kind=st.sampled_from(["drafts", "transcript"]))
                | st.builds(
                    JudgeSight,
                    kind=st.sampled_from(["files", "state"]),
                    selectors=st.lists(NAME, min_size=1, max_size=2).map(tuple),
                ),
                min_size=1,
                max_size=3,
            ).map(tuple),
            samples=st.integers(1, 9),
        ),
    ),
)

WORKFLOWS = st.builds(
    Workflow,
    version=st.just(1),
    name=NAME,
    description=st.none() | TEXT,
    target=st.builds(
        TargetSpec,
        provider=NAME,
        model=NAME,
        parameters=st.builds(
            TargetParameters,
            temperature=st.none() | st.floats(0, 2),
            top_p=st.none() | st.floats(0, 1),
            seed=st.none() | INT,
            max_output_tokens=st.none() | INT,
        ),
    ),
    environment=st.builds(
        EnvironmentSpec,
        kind=st.sampled_from(["simulated", "sandbox"]),
        files=st.dictionaries(NAME, TEXT, max_size=3),
        state=st.builds(
            InitialState,
            documents=st.dictionaries(
                NAME, st.builds(Document, title=TEXT, content=TEXT), max_size=2
            ),
            records=st.dictionaries(
                NAME,
                st.dictionaries(
                    NAME, st.dictionaries(NAME, JSON, max_size=2), max_size=2
                ),
                max_size=2,
            ),
        ),
        fixture=st.none() | NAME,
    ),
    tools=st.lists(
        st.builds(
            ToolDeclaration,
            name=NAME,
            allow=st.builds(
                ToolAllow,
                paths=GLOBS,
                ids=GLOBS,
                tables=GLOBS,
                fields=GLOBS,
                recipients=GLOBS,
                actions=GLOBS,
                assignees=GLOBS,
            ),
            mcp=st.none() | st.builds(McpToolRef, server=NAME, tool=NAME),
            resource=st.none()
            | st.builds(McpResource, key=NAME, argument=st.none() | NAME),
            effect=st.none() | st.sampled_from(["read", "write"]),
            schema_digest=st.none() | TEXT,
            timeout_ms=st.none() | st.integers(min_value=1, max_value=600_000),
        ),
        max_size=3,
    ).map(tuple),
    policy=st.builds(Policy, on_denial=st.sampled_from(["stop", "report"])),
    conversation=st.builds(
        Conversation,
        system=st.none() | TEXT,
        turns=st.lists(st.builds(Turn, user=TEXT), min_size=1, max_size=3).map(tuple),
    ),
    budgets=st.builds(
        Budgets,
        max_actions=INT,
        timeout_ms=INT,
        max_model_requests=COUNTS,
        max_tool_calls=COUNTS,
        max_tokens=COUNTS,
    ),
    outcomes=st.lists(OUTCOMES, max_size=4).map(tuple),
    faults=st.lists(
        st.builds(
            Fault,
            id=NAME,
            tool=NAME,
            occurrence=INT,
            kind=st.sampled_from(
                [
                    "unavailable_tool",
                    "timeout",
                    "stale_read",
                    "incomplete_read",
                    "malformed_result",
                    "conflicting_instructions",
                ]
            ),
            timeout_ms=COUNTS,
            fixture=st.none() | st.dictionaries(NAME, JSON, max_size=2),
            content=st.none() | TEXT,
        ),
        max_size=2,
    ).map(tuple),
    retry=st.builds(ToolRetryPolicy, max_attempts=st.integers(1, 5)),
)


@settings(max_examples=150, deadline=None, database=None)
@given(WORKFLOWS)
def test_structure_of_unstructure_is_identity(workflow: Workflow) -> None:
    assert CONVERTER.structure(CONVERTER.unstructure(workflow), Workflow) == workflow


def test_examples_round_trip() -> None:
    for path in sorted((ROOT / "examples").rglob("workflow.yaml")):
        tools = CUSTOM_TOOLS if path.parent.name == "custom_tool" else ()
        workflow = parse_agent_workflow(path.read_text("utf-8"), tools=tools)
        again = CONVERTER.structure(CONVERTER.unstructure(workflow), Workflow)
        assert again == workflow
