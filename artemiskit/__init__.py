"""ArtemisKit: run LLM agent workflows under control and keep honest evidence."""

from __future__ import annotations

import warnings

from artemiskit import _errors
from artemiskit._errors import (
    ArtemisError,
    CheckpointError,
    ConfigError,
    EnvironmentFailureError,
    FileAccessError,
    FileOperationError,
    FixtureError,
    InvalidResponseError,
    Problem,
    RuntimeFailureError,
    SessionStateError,
    TargetError,
    ToolDefinitionError,
    UnsupportedError,
    WorkflowError,
)
from artemiskit._exit_codes import ExitCode
from artemiskit._kit import (
    ArtemisKit,
    WorkflowSource,
    create_agent_workflow_session,
)
from artemiskit._options import CheckpointOptions, RunKeywords, RunOptions
from artemiskit._version import __version__
from artemiskit.config import TrustedConfig, load_trusted_config
from artemiskit.engine._events import SessionEvent
from artemiskit.engine._judge import JudgeSettings
from artemiskit.engine._session import WorkflowResult, WorkflowSession
from artemiskit.environments._base import CleanupReport, Environment, EnvironmentFactory
from artemiskit.records import ExecutionRecord
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
    "CheckpointError",
    "CheckpointOptions",
    "CleanupReport",
    "ConfigError",
    "Environment",
    "EnvironmentFactory",
    "EnvironmentFailureError",
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
    "RunKeywords",
    "RunOptions",
    "RuntimeFailureError",
    "SessionEvent",
    "SessionStateError",
    "TargetError",
    "TargetRequest",
    "TargetResponse",
    "Tool",
    "ToolCall",
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
    "load_agent_workflow",
    "load_trusted_config",
    "parse_agent_workflow",
    "validate_agent_workflow",
]

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


def __getattr__(name: str) -> type[_errors.ArtemisError]:
    if name in _DEPRECATED_ERRORS:
        warnings.warn(
            f"artemiskit.{name} is deprecated and will be removed in the next "
            "release: it is never raised; read the record's execution.status "
            "and exit_code instead",
            DeprecationWarning,
            stacklevel=2,
        )
        error_class: type[_errors.ArtemisError] = getattr(_errors, name)
        return error_class
    raise AttributeError(f"module 'artemiskit' has no attribute {name!r}")
