"""Agent targets: the protocols the engine drives (providers implement them)."""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit.targets._langchain import (
        LangChainTarget as LangChainTarget,
    )
    from artemiskit.targets._protocol import (
        AgentTarget as AgentTarget,
        Message as Message,
        ModelClient as ModelClient,
        ModelRequest as ModelRequest,
        ResumableTarget as ResumableTarget,
        TargetRequest as TargetRequest,
        TargetResponse as TargetResponse,
        ToolCall as ToolCall,
        ToolDefinition as ToolDefinition,
        Usage as Usage,
        create_model_client_target as create_model_client_target,
    )

_exports.export_lazily(globals())
