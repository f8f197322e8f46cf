"""The workflow contract (SPEC section 3): schema, loading, validation, model classes.

Point an editor's YAML language server at `WORKFLOW_SCHEMA_FILE` for completion and
inline errors; `load_agent_workflow` applies the same schema plus the semantic checks.

Every public name is exported lazily, as in ``artemiskit``: `check_agent_workflow`
(``akit scenario validate``) loads neither the model classes nor the tool runtime.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit._common._budgets import Budgets as Budgets
    from artemiskit._common._yaml_document import (
        YamlDocument as YamlDocument,
        parse_yaml as parse_yaml,
    )
    from artemiskit.workflow._fixture import (
        FixtureContents as FixtureContents,
        load_fixture_state as load_fixture_state,
        merge_fixture as merge_fixture,
    )
    from artemiskit.workflow._loader import (
        load_agent_workflow as load_agent_workflow,
        parse_agent_workflow as parse_agent_workflow,
        read_agent_workflow as read_agent_workflow,
        validate_agent_workflow as validate_agent_workflow,
    )
    from artemiskit.workflow._model import (
        Conversation as Conversation,
        Document as Document,
        EnvironmentSpec as EnvironmentSpec,
        Fault as Fault,
        FaultKind as FaultKind,
        FileOutcome as FileOutcome,
        FinalResponseCheck as FinalResponseCheck,
        FinalResponseOutcome as FinalResponseOutcome,
        InitialState as InitialState,
        JudgeOutcome as JudgeOutcome,
        JudgeSight as JudgeSight,
        JudgeSightKind as JudgeSightKind,
        JudgeSpec as JudgeSpec,
        McpResource as McpResource,
        McpToolRef as McpToolRef,
        Outcome as Outcome,
        Policy as Policy,
        Predicate as Predicate,
        RecordOutcome as RecordOutcome,
        RecordRef as RecordRef,
        ScorerOutcome as ScorerOutcome,
        StateOutcome as StateOutcome,
        TargetParameters as TargetParameters,
        TargetSpec as TargetSpec,
        ToolAllow as ToolAllow,
        ToolCalledOutcome as ToolCalledOutcome,
        ToolDeclaration as ToolDeclaration,
        ToolNotCalledOutcome as ToolNotCalledOutcome,
        ToolRetryPolicy as ToolRetryPolicy,
        Trajectory as Trajectory,
        TrajectoryOutcome as TrajectoryOutcome,
        TrajectoryStep as TrajectoryStep,
        Turn as Turn,
        Workflow as Workflow,
    )
    from artemiskit.workflow._tool_schema import (
        WORKFLOW_SCHEMA_FILE as WORKFLOW_SCHEMA_FILE,
    )
    from artemiskit.workflow._validation import (
        check_agent_workflow as check_agent_workflow,
        unchecked_scorer_outcomes as unchecked_scorer_outcomes,
    )

_exports.export_lazily(
    globals(),
    deprecated={
        "RetryPolicy": _exports.Deprecated(
            module="artemiskit.workflow._model",
            attribute="ToolRetryPolicy",
            message=(
                "artemiskit.workflow.RetryPolicy is deprecated; use "
                "artemiskit.workflow.ToolRetryPolicy"
            ),
        )
    },
)
