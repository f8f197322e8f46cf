"""The workflow contract (SPEC section 3): schema, loading, validation, model classes.

Point an editor's YAML language server at `WORKFLOW_SCHEMA_FILE` for completion and
inline errors; `load_agent_workflow` applies the same schema plus the semantic checks.

Every public name is exported lazily, as in ``artemiskit``:
`read_agent_workflow_data` (``akit scenario validate``) loads neither the model
classes nor the tool runtime.

The loading verbs mean one thing each (docs/sdk.md): ``parse_*`` builds from YAML
text, ``load_*`` from a file (awaited), ``read_*`` from a file without an event
loop (it blocks); all three raise a typed error listing every problem.
``validate_*`` returns the problems instead and never raises for them.
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
    from artemiskit.workflow._case_workflows import (
        CaseWorkflows as CaseWorkflows,
        WorkflowCase as WorkflowCase,
        load_case_workflows as load_case_workflows,
        read_case_workflows as read_case_workflows,
    )
    from artemiskit.workflow._checks import DeclaredTool as DeclaredTool
    from artemiskit.workflow._declared_scorers import (
        DeclaredScorer as DeclaredScorer,
        DeclaredScorers as DeclaredScorers,
    )
    from artemiskit.workflow._declared_tools import DeclaredTools as DeclaredTools
    from artemiskit.workflow._interfaces import ToolInterface as ToolInterface
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
        read_agent_workflow_data as read_agent_workflow_data,
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
        ),
        "check_agent_workflow": _exports.Deprecated(
            module="artemiskit.workflow._validation",
            attribute="read_agent_workflow_data",
            message="artemiskit.workflow.check_agent_workflow is deprecated and "
            "will be removed in the next release: use "
            "artemiskit.workflow.read_agent_workflow_data (read_* reads a file and "
            "raises; validate_* returns problems)",
        ),
        **_exports.retired(
            "artemiskit.workflow",
            {
                "artemiskit.workflow._fixture": (
                    "FixtureContents",
                    "load_fixture_state",
                    "merge_fixture",
                )
            },
            "a run loads and merges the fixture itself",
        ),
    },
)
