"""The workflow contract (SPEC section 3): schema, loading, validation, model classes.

Point an editor's YAML language server at `WORKFLOW_SCHEMA_FILE` for completion and
inline errors; `load_agent_workflow` applies the same schema plus the semantic checks.
"""

from __future__ import annotations

from artemiskit._common._yaml import YamlDocument, parse_yaml
from artemiskit.workflow._fixture import (
    FixtureContents,
    load_fixture_state,
    merge_fixture,
)
from artemiskit.workflow._loader import (
    WORKFLOW_SCHEMA_FILE,
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
    JudgeSpec,
    Outcome,
    Policy,
    RecordOutcome,
    RecordRef,
    RetryPolicy,
    StateOutcome,
    TargetParameters,
    TargetSpec,
    ToolAllow,
    ToolCalledOutcome,
    ToolDeclaration,
    ToolNotCalledOutcome,
    Turn,
    Workflow,
)

__all__ = [
    "Budgets",
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
    "JudgeSpec",
    "Outcome",
    "Policy",
    "RecordOutcome",
    "RecordRef",
    "RetryPolicy",
    "StateOutcome",
    "TargetParameters",
    "TargetSpec",
    "ToolAllow",
    "ToolCalledOutcome",
    "ToolDeclaration",
    "ToolNotCalledOutcome",
    "Turn",
    "WORKFLOW_SCHEMA_FILE",
    "Workflow",
    "YamlDocument",
    "load_agent_workflow",
    "load_fixture_state",
    "merge_fixture",
    "parse_agent_workflow",
    "parse_yaml",
    "read_agent_workflow",
    "validate_agent_workflow",
]
