"""Agent targets: the protocols the engine drives (providers implement them)."""

from __future__ import annotations

from artemiskit.targets._identity import (
    AgentFactory,
    TargetChoice,
    agent_choices,
    parse_target,
    target_choices,
)
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
    "AgentFactory",
    "AgentTarget",
    "LangChainTarget",
    "Message",
    "ModelClient",
    "ModelRequest",
    "ResumableTarget",
    "TargetChoice",
    "TargetRequest",
    "TargetResponse",
    "ToolCall",
    "ToolDefinition",
    "Usage",
    "agent_choices",
    "create_model_client_target",
    "parse_target",
    "target_choices",
]
