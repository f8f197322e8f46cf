"""The workflow contract (SPEC section 3): schema, loading, validation, model classes.

Point an editor's YAML language server at `WORKFLOW_SCHEMA_FILE` for completion and
inline errors; `load_agent_workflow` applies the same schema plus the semantic checks.

Every public name is exported lazily, as in ``artemiskit``: `check_agent_workflow`
(``akit scenario validate``) loads neither the model classes nor the tool runtime.
"""

from __future__ import annotations

import importlib
import typing

if typing.TYPE_CHECKING:
    from artemiskit._common._yaml_document import YamlDocument, parse_yaml
    from artemiskit.workflow._case_workflows import (
        CaseWorkflows,
        WorkflowCase,
        load_case_workflows,
        read_case_workflows,
    )
    from artemiskit.workflow._fixture import (
        FixtureContents,
        load_fixture_state,
        merge_fixture,
    )
    from artemiskit.workflow._loader import (
        load_agent_workflow,
        parse_agent_workflow,
        read_agent_workflow,
        validate_agent_workflow,
    )
    from artemiskit.workflow._model import (
        Budgets,
        Conversation,
        Document,
        EnvironmentSpec,
        Fault,
        FaultKind,
        FileOutcome,
        FinalResponseCheck,
        FinalResponseOutcome,
        InitialState,
        JudgeOutcome,
        JudgeSight,
        JudgeSightKind,
        JudgeSpec,
        McpResource,
        McpToolRef,
        Outcome,
        Policy,
        Predicate,
        RecordOutcome,
        RecordRef,
        RetryPolicy,
        ScorerOutcome,
        StateOutcome,
        TargetParameters,
        TargetSpec,
        ToolAllow,
        ToolCalledOutcome,
        ToolDeclaration,
        ToolNotCalledOutcome,
        Trajectory,
        TrajectoryOutcome,
        TrajectoryStep,
        Turn,
        Workflow,
    )
    from artemiskit.workflow._tool_schema import WORKFLOW_SCHEMA_FILE
    from artemiskit.workflow._validation import (
        check_agent_workflow,
        unchecked_scorer_outcomes,
    )

__all__ = [
    "Budgets",
    "CaseWorkflows",
    "Conversation",
    "Document",
    "EnvironmentSpec",
    "Fault",
    "FaultKind",
    "FileOutcome",
    "FinalResponseCheck",
    "FinalResponseOutcome",
    "FixtureContents",
    "InitialState",
    "JudgeOutcome",
    "JudgeSight",
    "JudgeSightKind",
    "JudgeSpec",
    "McpResource",
    "McpToolRef",
    "Outcome",
    "Policy",
    "Predicate",
    "RecordOutcome",
    "RecordRef",
    "RetryPolicy",
    "ScorerOutcome",
    "StateOutcome",
    "TargetParameters",
    "TargetSpec",
    "ToolAllow",
    "ToolCalledOutcome",
    "ToolDeclaration",
    "ToolNotCalledOutcome",
    "Trajectory",
    "TrajectoryOutcome",
    "TrajectoryStep",
    "Turn",
    "WORKFLOW_SCHEMA_FILE",
    "Workflow",
    "WorkflowCase",
    "YamlDocument",
    "check_agent_workflow",
    "load_agent_workflow",
    "load_case_workflows",
    "load_fixture_state",
    "merge_fixture",
    "parse_agent_workflow",
    "parse_yaml",
    "read_agent_workflow",
    "read_case_workflows",
    "unchecked_scorer_outcomes",
    "validate_agent_workflow",
]

_MODEL = "artemiskit.workflow._model"
#: Public name -> the module that defines it (imported on first access).
_EXPORTS: dict[str, str] = {
    "YamlDocument": "artemiskit._common._yaml_document",
    "parse_yaml": "artemiskit._common._yaml_document",
    "CaseWorkflows": "artemiskit.workflow._case_workflows",
    "WorkflowCase": "artemiskit.workflow._case_workflows",
    "load_case_workflows": "artemiskit.workflow._case_workflows",
    "read_case_workflows": "artemiskit.workflow._case_workflows",
    "FixtureContents": "artemiskit.workflow._fixture",
    "load_fixture_state": "artemiskit.workflow._fixture",
    "merge_fixture": "artemiskit.workflow._fixture",
    "load_agent_workflow": "artemiskit.workflow._loader",
    "parse_agent_workflow": "artemiskit.workflow._loader",
    "read_agent_workflow": "artemiskit.workflow._loader",
    "validate_agent_workflow": "artemiskit.workflow._loader",
    "Budgets": _MODEL,
    "Conversation": _MODEL,
    "Document": _MODEL,
    "EnvironmentSpec": _MODEL,
    "Fault": _MODEL,
    "FaultKind": _MODEL,
    "FileOutcome": _MODEL,
    "FinalResponseCheck": _MODEL,
    "FinalResponseOutcome": _MODEL,
    "InitialState": _MODEL,
    "JudgeOutcome": _MODEL,
    "JudgeSpec": _MODEL,
    "McpResource": _MODEL,
    "McpToolRef": _MODEL,
    "Outcome": _MODEL,
    "Policy": _MODEL,
    "RecordOutcome": _MODEL,
    "RecordRef": _MODEL,
    "RetryPolicy": _MODEL,
    "StateOutcome": _MODEL,
    "TargetParameters": _MODEL,
    "TargetSpec": _MODEL,
    "ToolAllow": _MODEL,
    "ToolCalledOutcome": _MODEL,
    "ToolDeclaration": _MODEL,
    "ToolNotCalledOutcome": _MODEL,
    "Turn": _MODEL,
    "Workflow": _MODEL,
    "WORKFLOW_SCHEMA_FILE": "artemiskit.workflow._tool_schema",
    "check_agent_workflow": "artemiskit.workflow._validation",
    "unchecked_scorer_outcomes": "artemiskit.workflow._validation",
    "JudgeSight": _MODEL,
    "JudgeSightKind": _MODEL,
    "Predicate": _MODEL,
    "ScorerOutcome": _MODEL,
    "Trajectory": _MODEL,
    "TrajectoryOutcome": _MODEL,
    "TrajectoryStep": _MODEL,
}


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'artemiskit.workflow' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    # Cached: the next access is a plain module attribute, with no hook.
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
