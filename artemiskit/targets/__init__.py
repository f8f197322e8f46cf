"""Agent targets: the protocols the engine drives (providers implement them)."""

from __future__ import annotations

from artemiskit.targets._protocol import (
    AgentTarget,
    Message,
    ModelClient,
    ModelRequest,
    ResumableTarget,
    TargetRequest,
    TargetResponse,
    ToolCall,
    ToolDefinition,
    Usage,
    create_model_client_target,
)

__all__ = [
    "AgentTarget",
    "Message",
    "ModelClient",
    "ModelRequest",
    "ResumableTarget",
    "TargetRequest",
    "TargetResponse",
    "ToolCall",
    "ToolDefinition",
    "Usage",
    "create_model_client_target",
]
