"""Tools as objects: the built-in catalogue (SPEC 3.1) and user-defined tools.

A `Tool` holds everything about one tool: name, description, input and output JSON
Schemas, the ``allow`` resource it is checked against, its effect, version, local-state
section and async handler. Register your own with ``ArtemisKit(tools=[...])``,
``create_agent_workflow_session(..., tools=[...])`` or ``akit ... --tools MODULE:ATTR``.
"""

from __future__ import annotations

import warnings

from artemiskit.tools._catalogue import (
    BUILTIN_TOOLS,
    CATALOGUE,
    Catalogue,
    catalogue_with,
)
from artemiskit.tools._mcp_listing import McpToolListing, list_mcp_tools
from artemiskit.tools._state import Approval, Delegation, Draft, LocalState
from artemiskit.tools._tool import (
    ALLOW_KEYS,
    Tool,
    ToolChange,
    ToolContext,
    ToolFailure,
    ToolResource,
    ToolResult,
)


def __getattr__(name: str) -> object:
    if name == "ToolSpec":  # the former catalogue entry type
        warnings.warn(
            "artemiskit.tools.ToolSpec is deprecated; use artemiskit.tools.Tool",
            DeprecationWarning,
            stacklevel=2,
        )
        return Tool
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ALLOW_KEYS",
    "Approval",
    "BUILTIN_TOOLS",
    "CATALOGUE",
    "Catalogue",
    "Delegation",
    "Draft",
    "LocalState",
    "McpToolListing",
    "Tool",
    "ToolChange",
    "ToolContext",
    "ToolFailure",
    "ToolResource",
    "ToolResult",
    "catalogue_with",
    "list_mcp_tools",
]
