"""ArtemisKit: run LLM agent workflows under control and keep honest evidence.

Every public name is exported lazily: ``import artemiskit`` loads nothing but this
module, and ``artemiskit.NAME`` (or ``from artemiskit import NAME``) imports the one
module that defines NAME on first use. To export a new name, add one row to
``_EXPORTS``, the same import under ``TYPE_CHECKING`` (for type checkers) and the
name to ``__all__``; tests/test_public_api.py checks that the three agree.
"""

from __future__ import annotations

import importlib
import typing
import warnings

if typing.TYPE_CHECKING:
    from artemiskit._errors import (
        ArtemisError,
        CassetteError,
        CheckpointError,
        ConfigError,
        EnvironmentFailureError,
        FileAccessError,
        FileOperationError,
        FixtureError,
        InvalidResponseError,
        ReplayMismatchError,
        RuntimeFailureError,
        ScorerDefinitionError,
        SessionStateError,
        TargetError,
        ToolDefinitionError,
        UnsupportedError,
        WorkflowError,
    )
    from artemiskit._exit_codes import ExitCode, PromptResponseExitCode
    from artemiskit._host_objects import import_host_objects
    from artemiskit._kit import (
        ArtemisKit,
        WorkflowSource,
        create_agent_workflow_session,
    )
    from artemiskit._options import CheckpointOptions, RunKeywords, RunOptions
    from artemiskit._problem import Problem
    from artemiskit._version import __version__
    from artemiskit.config import TrustedConfig, load_trusted_config
    from artemiskit.engine._events import SessionEvent
    from artemiskit.engine._judge import JudgeSettings
    from artemiskit.engine._session import WorkflowResult, WorkflowSession
    from artemiskit.environments._base import (
        CleanupReport,
        Environment,
        EnvironmentFactory,
    )
    from artemiskit.records import ExecutionRecord
    from artemiskit.scorers import Evidence, Score, Scorer, ToolCallEvidence
    from artemiskit.targets import (
        AgentTarget,
        Message,
        ModelClient,
        ModelRequest,
        TargetRequest,
        TargetResponse,
        ToolCall,
        ToolDefinition,
        Usage,
        create_model_client_target,
    )
    from artemiskit.tools import (
        Tool,
        ToolChange,
        ToolContext,
        ToolFailure,
        ToolResource,
        ToolResult,
    )
    from artemiskit.workflow import (
        Workflow,
        load_agent_workflow,
        parse_agent_workflow,
        validate_agent_workflow,
    )

__all__ = [
    "AgentTarget",
    "ArtemisError",
    "ArtemisKit",
    "CassetteError",
    "CheckpointError",
    "CheckpointOptions",
    "CleanupReport",
    "ConfigError",
    "Environment",
    "EnvironmentFactory",
    "EnvironmentFailureError",
    "Evidence",
    "ExecutionRecord",
    "ExitCode",
    "FileAccessError",
    "FileOperationError",
    "FixtureError",
    "InvalidResponseError",
    "JudgeSettings",
    "Message",
    "ModelClient",
    "ModelRequest",
    "Problem",
    "PromptResponseExitCode",
    "ReplayMismatchError",
    "RunKeywords",
    "RunOptions",
    "RuntimeFailureError",
    "Score",
    "Scorer",
    "ScorerDefinitionError",
    "SessionEvent",
    "SessionStateError",
    "TargetError",
    "TargetRequest",
    "TargetResponse",
    "Tool",
    "ToolCall",
    "ToolCallEvidence",
    "ToolChange",
    "ToolContext",
    "ToolDefinition",
    "ToolDefinitionError",
    "ToolFailure",
    "ToolResource",
    "ToolResult",
    "TrustedConfig",
    "UnsupportedError",
    "Usage",
    "Workflow",
    "WorkflowError",
    "WorkflowResult",
    "WorkflowSession",
    "WorkflowSource",
    "__version__",
    "create_agent_workflow_session",
    "create_model_client_target",
    "import_host_objects",
    "load_agent_workflow",
    "load_trusted_config",
    "parse_agent_workflow",
    "validate_agent_workflow",
]

#: Public name -> the module that defines it (imported on first access).
_EXPORTS: dict[str, str] = {
    "ArtemisError": "artemiskit._errors",
    "CassetteError": "artemiskit._errors",
    "CheckpointError": "artemiskit._errors",
    "ConfigError": "artemiskit._errors",
    "EnvironmentFailureError": "artemiskit._errors",
    "FileAccessError": "artemiskit._errors",
    "FileOperationError": "artemiskit._errors",
    "FixtureError": "artemiskit._errors",
    "InvalidResponseError": "artemiskit._errors",
    "ReplayMismatchError": "artemiskit._errors",
    "RuntimeFailureError": "artemiskit._errors",
    "SessionStateError": "artemiskit._errors",
    "TargetError": "artemiskit._errors",
    "ToolDefinitionError": "artemiskit._errors",
    "ScorerDefinitionError": "artemiskit._errors",
    "import_host_objects": "artemiskit._host_objects",
    "Evidence": "artemiskit.scorers",
    "Score": "artemiskit.scorers",
    "Scorer": "artemiskit.scorers",
    "ToolCallEvidence": "artemiskit.scorers",
    "UnsupportedError": "artemiskit._errors",
    "WorkflowError": "artemiskit._errors",
    "ExitCode": "artemiskit._exit_codes",
    "PromptResponseExitCode": "artemiskit._exit_codes",
    "ArtemisKit": "artemiskit._kit",
    "WorkflowSource": "artemiskit._kit",
    "create_agent_workflow_session": "artemiskit._kit",
    "CheckpointOptions": "artemiskit._options",
    "RunKeywords": "artemiskit._options",
    "RunOptions": "artemiskit._options",
    "Problem": "artemiskit._problem",
    "__version__": "artemiskit._version",
    "TrustedConfig": "artemiskit.config",
    "load_trusted_config": "artemiskit.config",
    "SessionEvent": "artemiskit.engine._events",
    "JudgeSettings": "artemiskit.engine._judge",
    "WorkflowResult": "artemiskit.engine._session",
    "WorkflowSession": "artemiskit.engine._session",
    "CleanupReport": "artemiskit.environments._base",
    "Environment": "artemiskit.environments._base",
    "EnvironmentFactory": "artemiskit.environments._base",
    "ExecutionRecord": "artemiskit.records",
    "AgentTarget": "artemiskit.targets",
    "Message": "artemiskit.targets",
    "ModelClient": "artemiskit.targets",
    "ModelRequest": "artemiskit.targets",
    "TargetRequest": "artemiskit.targets",
    "TargetResponse": "artemiskit.targets",
    "ToolCall": "artemiskit.targets",
    "ToolDefinition": "artemiskit.targets",
    "Usage": "artemiskit.targets",
    "create_model_client_target": "artemiskit.targets",
    "Tool": "artemiskit.tools",
    "ToolChange": "artemiskit.tools",
    "ToolContext": "artemiskit.tools",
    "ToolFailure": "artemiskit.tools",
    "ToolResource": "artemiskit.tools",
    "ToolResult": "artemiskit.tools",
    "Workflow": "artemiskit.workflow",
    "load_agent_workflow": "artemiskit.workflow",
    "parse_agent_workflow": "artemiskit.workflow",
    "validate_agent_workflow": "artemiskit.workflow",
}

#: Error classes that were exported but never raised: importing one still works
#: for this release, with a warning.
_DEPRECATED_ERRORS = frozenset(
    {
        "BudgetExhaustedError",
        "DeadlineExceededError",
        "PolicyDeniedError",
        "SessionCancelledError",
    }
)


# Typed as before the exports were lazy: for type checkers every exported name is
# one of the imports above; only the deprecated names fall through to here.
def __getattr__(name: str) -> type[ArtemisError]:
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
        # Cached: the next access is a plain module attribute, with no hook.
        globals()[name] = value
        return typing.cast("type[ArtemisError]", value)
    if name in _DEPRECATED_ERRORS:
        warnings.warn(
            f"artemiskit.{name} is deprecated and will be removed in the next "
            "release: it is never raised; read the record's execution.status "
            "and exit_code instead",
            DeprecationWarning,
            stacklevel=2,
        )
        error_class: type[ArtemisError] = getattr(
            importlib.import_module("artemiskit._errors"), name
        )
        return error_class
    raise AttributeError(f"module 'artemiskit' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
