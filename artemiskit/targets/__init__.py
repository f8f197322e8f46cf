"""Agent targets: the protocols the engine drives (providers implement them)."""

from __future__ import annotations

from artemiskit.targets._langchain import LangChainTarget
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
    "LangChainTarget",
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
