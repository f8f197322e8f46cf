"""MCP-backed tools (SPEC 24): each declared server tool becomes a `Tool`.

A workflow's MCP declaration says which server tool it stands for, its resource and
its effect; the running server says the rest (description, input and output
schemas). `McpToolSet` starts the servers a run needs, lists their tools and builds
one `Tool` per declaration, whose handler calls the server; from then on the engine
treats it as any tool: admission (declared, original arguments against the input
schema, ``allow``), faults and retries, budgets, ledger, output validation,
checkpoint binding (the tool's version is its schema digest) and records.

Undeclared server tools are never offered: only declared ones become tools. A
server's answer maps to the model's tool result as follows: ``structuredContent``
when the server declares an output schema, else ``{"content": [...]}`` (text items
in full, other items by type); ``isError`` is a tool failure ``mcp_tool_error``; a
crash, hang or protocol error is ``mcp_unavailable``; an answer over
`MAX_RESULT_BYTES` is ``mcp_result_too_large``.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any, Literal, Protocol

import anyio
import attrs

from artemiskit._errors import ConfigError, ToolDefinitionError, UnsupportedError
from artemiskit.tools._mcp_connection import McpCallError, McpConnection, connect
from artemiskit.tools._mcp_schema import SchemaRefused, linear_validator, schema_digest
from artemiskit.tools._tool import Tool, ToolFailure, ToolResult
from artemiskit.workflow._interfaces import ToolResource

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from artemiskit.tools._mcp_config import McpServerConfig
    from artemiskit.tools._mcp_connection import ListedTool
    from artemiskit.tools._tool import ToolContext

__all__ = [
    "CONTENT_OUTPUT_SCHEMA",
    "DEFAULT_TIMEOUT_MS",
    "MAX_RESULT_BYTES",
    "SUITE_SERVERS_KEY",
    "McpDeclaration",
    "McpReference",
    "McpResourceKey",
    "McpServers",
    "McpTool",
    "McpToolSet",
    "mcp_tool",
]

#: Where a suite's shared ``lifetime: suite`` servers sit in its `SharedTransports`.
SUITE_SERVERS_KEY = "artemiskit.mcp.suite-servers"
#: A call's default timeout (SPEC 26, MCP).
DEFAULT_TIMEOUT_MS = 30_000
#: The largest tool result (as JSON) the model may receive from a server.
MAX_RESULT_BYTES = 1024 * 1024
#: The largest error text of an ``isError`` result the model is told.
_MAX_ERROR_CHARS = 4096
#: The output schema of a server tool that declares none.
CONTENT_OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "content": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"type": {"type": "string"}, "text": {"type": "string"}},
                "required": ["type"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["content"],
    "additionalProperties": False,
}


class McpReference(Protocol):
    """Which server tool a declaration stands for (``mcp: {server, tool}``)."""

    @property
    def server(self) -> str:
        """The ``mcp_servers`` entry."""

    @property
    def tool(self) -> str:
        """The tool's name on the server."""


class McpResourceKey(Protocol):
    """The declared ``resource: {key, argument}``."""

    @property
    def key(self) -> str:
        """The ``allow`` key."""

    @property
    def argument(self) -> str | None:
        """The string argument checked against the key's globs."""


class McpDeclaration(Protocol):
    """What this module reads of a workflow's MCP tool declaration.

    The workflow's `ToolDeclaration` is one (tools sit below the workflow layer,
    so they name this protocol instead).
    """

    @property
    def name(self) -> str:
        """The name the model calls."""

    @property
    def mcp(self) -> McpReference | None:
        """The server tool."""

    @property
    def resource(self) -> McpResourceKey | None:
        """The resource checked against ``allow``."""

    @property
    def effect(self) -> Literal["read", "write"] | None:
        """The declared effect (``write`` when ``None``)."""

    @property
    def schema_digest(self) -> str | None:
        """The pinned schema digest, if any."""

    @property
    def timeout_ms(self) -> int | None:
        """One call's timeout (default `DEFAULT_TIMEOUT_MS`)."""


@attrs.frozen(kw_only=True, repr=False, eq=False)
class McpTool(Tool):
    """A declared tool of an MCP server; its schemas are the server's.

    Attributes:
        server: The ``mcp_servers`` entry.
        server_tool: The tool's name as the server lists it.
        schema_digest: The digest of the listed input and output schemas.
    """

    server: str = ""
    server_tool: str = ""
    schema_digest: str = ""

    def _validators(self) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
        return _linear_validators(self)

    def __repr__(self) -> str:
        return (
            f"McpTool(name={self.name!r}, server={self.server!r}, "
            f"effect={self.effect!r})"
        )


@functools.lru_cache(maxsize=1024)  # tools are built per run: a bounded cache
def _linear_validators(
    tool: McpTool,
) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    try:
        return (
            linear_validator(tool.input_schema),
            linear_validator(tool.output_schema),
        )
    except SchemaRefused as exc:
        raise ToolDefinitionError(
            f"MCP tool {tool.name!r}: the server's schema is refused: {exc}",
            reason="mcp_schema_refused",
        ) from None


def _content_item(item: Any) -> dict[str, Any]:
    kind = str(getattr(item, "type", "unknown"))
    if kind == "text":
        return {"type": "text", "text": str(item.text)}
    return {"type": kind}


def _error_text(result: Any) -> str:
    texts = [
        str(item.text) for item in result.content or () if getattr(item, "text", None)
    ]
    text = "\n".join(texts) or "the MCP tool reported an error"
    return text[:_MAX_ERROR_CHARS]


def _handler(
    connection: McpConnection,
    server_tool: str,
    timeout_ms: int,
    structured: bool,
) -> Callable[[Mapping[str, Any], ToolContext], Any]:
    async def call(arguments: Mapping[str, Any], context: ToolContext) -> ToolResult:
        try:
            result = await connection.call(server_tool, arguments, timeout_ms / 1000)
        except McpCallError as exc:
            raise ToolFailure(exc.code, exc.message) from None
        if result.is_error:
            raise ToolFailure("mcp_tool_error", _error_text(result))
        if structured:
            output = result.structured_content
            if not isinstance(output, dict):
                output = {}
        else:
            output = {"content": [_content_item(item) for item in result.content]}
        try:
            size = len(json.dumps(output, ensure_ascii=False).encode("utf-8"))
        except (TypeError, ValueError, RecursionError):
            raise ToolFailure(
                "mcp_unavailable", "the MCP server's answer is not JSON"
            ) from None
        if size > MAX_RESULT_BYTES:
            raise ToolFailure(
                "mcp_result_too_large",
                f"the MCP tool's result is larger than {MAX_RESULT_BYTES} bytes",
            )
        return ToolResult(output=output)

    return call


def mcp_tool(
    declaration: McpDeclaration,
    listed: ListedTool,
    connection: McpConnection,
    *,
    server: str,
) -> McpTool:
    """The `Tool` a workflow's MCP declaration stands for, over a listed tool.

    Raises:
        UnsupportedError: The schema differs from the declaration's pin
            (``mcp_schema_mismatch``), or the server's schema cannot serve the
            declaration (``mcp_schema_refused``); exit 3.
    """
    digest = schema_digest(listed.input_schema, listed.output_schema)
    if declaration.schema_digest is not None and declaration.schema_digest != digest:
        raise UnsupportedError(
            f"MCP tool {declaration.name!r}: the server's schema digest is {digest}, "
            f"not the {declaration.schema_digest} the workflow pins",
            reason="mcp_schema_mismatch",
        )
    resource = None
    if declaration.resource is not None:
        resource = ToolResource(
            key=declaration.resource.key, argument=declaration.resource.argument
        )
    structured = listed.output_schema is not None
    timeout_ms = declaration.timeout_ms or DEFAULT_TIMEOUT_MS
    try:
        return McpTool(
            name=declaration.name,
            description=listed.description,
            input_schema=listed.input_schema,
            output_schema=listed.output_schema or CONTENT_OUTPUT_SCHEMA,
            effect=declaration.effect or "write",
            handler=_handler(connection, listed.name, timeout_ms, structured),
            resource=resource,
            version=f"mcp:{digest}",
            server=server,
            server_tool=listed.name,
            schema_digest=digest,
        )
    except ToolDefinitionError as exc:
        raise UnsupportedError(
            f"MCP tool {declaration.name!r} cannot be used: {exc.message}",
            reason="mcp_schema_refused",
        ) from None


class _Owner:
    """Holds one connection open in its own task until asked to close it.

    The connection's own tasks then fail only this task (which records it), never
    the run that uses the connection.
    """

    def __init__(self, config: McpServerConfig, cleanup_s: float) -> None:
        self.config = config
        self.connection: McpConnection | None = None
        self.error: UnsupportedError | None = None
        self.ready = anyio.Event()
        self.stop = anyio.Event()
        self.done = anyio.Event()
        self._cleanup_s = cleanup_s

    async def hold(self) -> None:
        try:
            async with connect(self.config, cleanup_s=self._cleanup_s) as connection:
                self.connection = connection
                self.ready.set()
                await self.stop.wait()
        except UnsupportedError as exc:
            self.error = exc
        except Exception:
            self.error = UnsupportedError(
                f"MCP server {self.config.name!r} failed", reason="mcp_unavailable"
            )
        finally:
            if self.connection is not None:
                self.connection.broken = True
            self.ready.set()
            self.done.set()


class McpServers:
    """Live MCP servers by name, each started on first use and held by a task.

    Enter it (``async with``) in the task that will also leave it: a run holds
    its own, a suite holds the one its ``lifetime: suite`` servers share.

    Args:
        configs: The trusted ``mcp_servers`` entries.
        cleanup_s: How long closing one server may take.
    """

    def __init__(self, configs: Mapping[str, McpServerConfig], *, cleanup_s: float):
        self._configs = configs
        self._cleanup_s = cleanup_s
        self._owners: dict[str, _Owner] = {}
        self._group: anyio.abc.TaskGroup | None = None

    async def __aenter__(self) -> McpServers:
        self._group = anyio.create_task_group()
        await self._group.__aenter__()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def connection(self, name: str) -> McpConnection:
        """The live connection to server ``name`` (started now if it is not).

        Raises:
            UnsupportedError: The server cannot be started or listed (exit 3).
        """
        assert self._group is not None
        owner = self._owners.get(name)
        if owner is None:
            owner = _Owner(self._configs[name], self._cleanup_s)
            self._owners[name] = owner
            self._group.start_soon(owner.hold)
        await owner.ready.wait()
        if owner.error is not None:
            raise owner.error
        assert owner.connection is not None
        return owner.connection

    async def aclose(self) -> None:
        """End every server, bounded by the cleanup timeout; never raises."""
        group, self._group = self._group, None
        if group is None:
            return
        for owner in self._owners.values():
            owner.stop.set()
        with anyio.CancelScope(shield=True):
            with anyio.move_on_after(self._cleanup_s + 0.5):
                for owner in self._owners.values():
                    await owner.done.wait()
        # left in the scope it was entered in: no new scope around its exit
        group.cancel_scope.cancel()
        group.cancel_scope.shield = True
        await group.__aexit__(None, None, None)


class McpToolSet:
    """The MCP tools one run declares, and the servers that serve them.

    Args:
        declarations: The workflow's MCP declarations.
        configs: The trusted ``mcp_servers`` entries.
        shared: Servers a suite shares (used for ``lifetime: suite`` entries).
        cleanup_s: How long ending a server may take.
    """

    def __init__(
        self,
        declarations: tuple[McpDeclaration, ...],
        configs: Mapping[str, McpServerConfig],
        *,
        shared: McpServers | None = None,
        cleanup_s: float = 1.0,
    ) -> None:
        self.declarations = declarations
        self._configs = configs
        self._shared = shared
        self._own: McpServers | None = None
        self._cleanup_s = cleanup_s
        self.servers: dict[str, str] = {}
        self.tools: tuple[McpTool, ...] = ()

    def check_configured(self) -> None:
        """Refuse declarations naming a server the configuration does not have.

        Raises:
            ConfigError: A declared server has no ``mcp_servers`` entry (exit 1).
        """
        missing = sorted(
            {
                d.mcp.server
                for d in self.declarations
                if d.mcp is not None and d.mcp.server not in self._configs
            }
        )
        if missing:
            raise ConfigError(
                f"the workflow uses MCP servers the configuration does not name: "
                f"{', '.join(missing)} (add them under mcp_servers)",
                reason="unknown_mcp_server",
            )

    async def open(self) -> tuple[McpTool, ...]:
        """Start the servers, list their tools and build the declared tools.

        Raises:
            ConfigError: A server is not configured (exit 1).
            UnsupportedError: A server cannot be started or listed, does not list
                a declared tool, or a pinned schema differs (exit 3).
        """
        self.check_configured()
        self._own = McpServers(self._configs, cleanup_s=self._cleanup_s)
        await self._own.__aenter__()
        built: list[McpTool] = []
        for declaration in self.declarations:
            assert declaration.mcp is not None
            name = declaration.mcp.server
            config = self._configs[name]
            pool = self._own
            if config.lifetime == "suite" and self._shared is not None:
                pool = self._shared
            self.servers[name] = "suite" if pool is self._shared else "run"
            connection = await pool.connection(name)
            listed = connection.tools.get(declaration.mcp.tool)
            if listed is None:
                raise UnsupportedError(
                    f"MCP server {name!r} does not list the tool "
                    f"{declaration.mcp.tool!r} that {declaration.name!r} declares",
                    reason="mcp_tool_missing",
                )
            built.append(mcp_tool(declaration, listed, connection, server=name))
        self.tools = tuple(built)
        return self.tools

    async def aclose(self) -> None:
        """End the run's own servers (a suite's shared ones stay); never raises."""
        own, self._own = self._own, None
        if own is not None:
            await own.aclose()

    def summary(self) -> dict[str, Any]:
        """Metadata for the record: servers (transport, lifetime) and tool digests."""
        return {
            "servers": [
                {
                    "name": name,
                    "transport": self._configs[name].transport,
                    "lifetime": lifetime,
                }
                for name, lifetime in sorted(self.servers.items())
            ],
            "tools": [
                {
                    "name": tool.name,
                    "server": tool.server,
                    "schema_digest": tool.schema_digest,
                }
                for tool in self.tools
            ],
        }
