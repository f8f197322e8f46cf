"""ArtemisKit: run LLM agent workflows under control and keep honest evidence."""

from __future__ import annotations

from artemiskit._errors import (
    ArtemisError,
    BudgetExhaustedError,
    CheckpointError,
    ConfigError,
    DeadlineExceededError,
    EnvironmentFailureError,
    FileAccessError,
    FileOperationError,
    FixtureError,
    InvalidResponseError,
    PolicyDeniedError,
    Problem,
    RuntimeFailureError,
    SessionCancelledError,
    SessionStateError,
    TargetError,
    ToolDefinitionError,
    UnsupportedError,
    WorkflowError,
)
from artemiskit._kit import (
    ArtemisKit,
    CheckpointOptions,
    create_agent_workflow_session,
)
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
    "BudgetExhaustedError",
    "CheckpointError",
    "CheckpointOptions",
    "CleanupReport",
    "ConfigError",
    "DeadlineExceededError",
    "Environment",
    "EnvironmentFactory",
    "EnvironmentFailureError",
    "ExecutionRecord",
    "FileAccessError",
    "FileOperationError",
    "FixtureError",
    "InvalidResponseError",
    "JudgeSettings",
    "Message",
    "ModelClient",
    "ModelRequest",
    "PolicyDeniedError",
    "Problem",
    "RuntimeFailureError",
    "SessionCancelledError",
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
    "__version__",
    "create_agent_workflow_session",
    "create_model_client_target",
    "load_agent_workflow",
    "load_trusted_config",
    "parse_agent_workflow",
    "validate_agent_workflow",
]
