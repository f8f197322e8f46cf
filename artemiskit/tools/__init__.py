"""Tools as objects: the built-in catalogue (SPEC 3.1) and user-defined tools.

A `Tool` holds everything about one tool: name, description, input and output JSON
Schemas, the ``allow`` resource it is checked against, its effect, version, local-state
section and async handler. Register your own with ``ArtemisKit(tools=[...])``,
``create_agent_workflow_session(..., tools=[...])`` or ``akit ... --tools MODULE:ATTR``.

Tools of MCP servers (SPEC 24) are declared by workflows and become `Tool` objects
when a run starts their servers; `list_mcp_tools` shows what a server offers.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit.tools._catalogue import (
        BUILTIN_TOOLS as BUILTIN_TOOLS,
        CATALOGUE as CATALOGUE,
        Catalogue as Catalogue,
        catalogue_with as catalogue_with,
    )
    from artemiskit.tools._mcp_config import (
        McpServerConfig as McpServerConfig,
        McpServerSource as McpServerSource,
    )
    from artemiskit.tools._mcp_listing import (
        McpToolListing as McpToolListing,
        list_mcp_tools as list_mcp_tools,
    )
    from artemiskit.tools._tool import (
        Tool as Tool,
        ToolChange as ToolChange,
        ToolContext as ToolContext,
        ToolFailure as ToolFailure,
        ToolResult as ToolResult,
    )
    from artemiskit.workflow._interfaces import (
        ALLOW_KEYS as ALLOW_KEYS,
        ToolResource as ToolResource,
    )
    from artemiskit.workflow._local_state import (
        Approval as Approval,
        Delegation as Delegation,
        Draft as Draft,
        LocalState as LocalState,
    )

_exports.export_lazily(
    globals(),
    deprecated={
        "ToolSpec": _exports.Deprecated(
            module="artemiskit.tools._tool",
            attribute="Tool",
            message=(
                "artemiskit.tools.ToolSpec is deprecated; use artemiskit.tools.Tool"
            ),
        )
    },
)
