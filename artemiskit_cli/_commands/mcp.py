"""``akit mcp``: the MCP servers of the trusted configuration (SPEC 24).

``tools`` starts (or reaches) one server, lists its tools with their input and
output schemas and schema digests (what a workflow's ``schema_digest`` pins), and
ends it. The ``mcp`` SDK is imported only when a server is listed.
"""

from __future__ import annotations

import json

import anyio
import click

from artemiskit import load_trusted_config
from artemiskit.tools import McpToolListing, list_mcp_tools
from artemiskit_cli._errors import reports_errors
from artemiskit_cli._params import PathParam

__all__ = ["mcp"]


@click.group()
def mcp() -> None:
    """List the tools of the MCP servers of the trusted configuration."""


async def _listing(config: str, server: str) -> list[McpToolListing]:
    return await list_mcp_tools(await load_trusted_config(config), server)


@mcp.command("tools")
@click.argument("server")
@click.option(
    "--config",
    "config",
    required=True,
    type=PathParam(dir_okay=False),
    help="The trusted configuration naming SERVER under mcp_servers.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print {server, tools: [{name, description, input_schema, output_schema, "
    "schema_digest}]} on stdout.",
)
@reports_errors
def tools(server: str, config: str, as_json: bool) -> None:
    """List SERVER's tools, their schemas and schema digests.

    Exit 0 when listed, 1 for a configuration problem (no such server), 3 when
    the server cannot be started, reached or listed.
    """
    listing = anyio.run(_listing, config, server)
    if as_json:
        document = {
            "server": server,
            "tools": [
                {
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": tool.input_schema,
                    "output_schema": tool.output_schema,
                    "schema_digest": tool.schema_digest,
                }
                for tool in listing
            ],
        }
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
        return
    for tool in listing:
        click.echo(f"{tool.name}  {tool.schema_digest}")
        if tool.description:
            click.echo(f"  {tool.description.splitlines()[0]}")
        click.echo(f"  input: {json.dumps(tool.input_schema, ensure_ascii=False)}")
        if tool.output_schema is not None:
            output = json.dumps(tool.output_schema, ensure_ascii=False)
            click.echo(f"  output: {output}")
