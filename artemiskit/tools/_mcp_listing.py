"""What an MCP server offers: its tools, their schemas and schema digests.

``akit mcp tools SERVER --config C`` prints this; a workflow pins a tool's
``schema_digest`` from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._errors import ConfigError

if TYPE_CHECKING:
    from artemiskit.tools._mcp_config import McpServerSource

__all__ = ["McpToolListing", "list_mcp_tools"]

_CLEANUP_S = 2.0


@attrs.frozen(kw_only=True)
class McpToolListing:
    """One tool as an MCP server lists it.

    Attributes:
        name: The tool's name on the server (``mcp: {tool: NAME}``).
        description: What the server says it does.
        input_schema: The JSON Schema of its arguments.
        output_schema: The JSON Schema of its structured result, if declared.
        schema_digest: What a workflow's ``schema_digest`` pins.
    """

    name: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    schema_digest: str


async def list_mcp_tools(config: McpServerSource, server: str) -> list[McpToolListing]:
    """Start (or reach) ``server`` of ``config``, list its tools, and end it.

    Args:
        config: The trusted configuration (a `TrustedConfig`) naming the server
            in ``mcp_servers``.
        server: The entry's name.

    Returns:
        Every tool the server lists, in its order.

    Raises:
        ConfigError: ``config`` has no such entry (exit 1).
        UnsupportedError: The server cannot be started, reached or listed
            (``mcp_unavailable``; exit 3).
    """
    from artemiskit.tools._mcp_connection import connect  # only when a server runs
    from artemiskit.tools._mcp_schema import schema_digest

    entry = config.mcp_servers.get(server)
    if entry is None:
        known = ", ".join(sorted(config.mcp_servers)) or "none"
        raise ConfigError(
            f"the configuration names no MCP server {server!r} (mcp_servers: {known})",
            reason="unknown_mcp_server",
        )
    async with connect(entry, cleanup_s=_CLEANUP_S) as connection:
        return [
            McpToolListing(
                name=tool.name,
                description=tool.description,
                input_schema=tool.input_schema,
                output_schema=tool.output_schema,
                schema_digest=schema_digest(tool.input_schema, tool.output_schema),
            )
            for tool in connection.tools.values()
        ]
