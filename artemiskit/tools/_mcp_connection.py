"""One live MCP server: started (or reached), initialized, its tools listed.

The official ``mcp`` SDK speaks the protocol (``ClientSession``); this module owns
what the product promises around it:

- a stdio server is started through a small launcher (``_mcp_launcher.py``) as the
  leader of a new process group, so it dies with its owner even when the owner is
  SIGKILLed, and closing kills the whole group within the cleanup bound (the SDK's
  own stdio transport waits seconds for a server to exit, so it is not used);
- the server's stderr is discarded, and the SDK's own log messages (which may
  quote a server) are not propagated: neither reaches records, logs or the
  terminal;
- a message larger than `MAX_MESSAGE_BYTES` ends the connection (the call that
  waited for it fails as too large) instead of being buffered without bound;
- every failure of a call is a `McpCallError` with a reason code, never a
  traceback: ``mcp_unavailable`` (crash, hang, protocol error, closed
  connection) or ``mcp_result_too_large``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import anyio.lowlevel

from artemiskit._errors import UnsupportedError

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Mapping

    from anyio.abc import Process
    from mcp.client.session import ClientSession

    from artemiskit.tools._mcp_config import McpServerConfig

__all__ = [
    "MAX_MESSAGE_BYTES",
    "McpCallError",
    "McpConnection",
    "ListedTool",
    "connect",
]

# The SDK logs failures with their details (server messages, tracebacks); nothing
# of a server reaches ArtemisKit's output, so its loggers are kept quiet here.
_SDK_LOGGER = logging.getLogger("mcp")
_SDK_LOGGER.addHandler(logging.NullHandler())
_SDK_LOGGER.propagate = False

#: The largest single protocol message accepted from a server.
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
_LAUNCHER = Path(__file__).with_name("_mcp_launcher.py")
#: Environment variables a stdio server inherits (the SDK's safe default list).
_INHERITED = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL")


class McpCallError(Exception):
    """A call that did not get a usable answer; ``code`` is the reason code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ListedTool:
    """A tool as the server lists it: name, description, schemas."""

    __slots__ = ("description", "input_schema", "name", "output_schema")

    def __init__(
        self,
        name: str,
        description: str,
        input_schema: dict[str, Any],
        output_schema: dict[str, Any] | None,
    ) -> None:
        self.name = name
        self.description = description
        self.input_schema = input_schema
        self.output_schema = output_schema

    def __repr__(self) -> str:
        return f"ListedTool(name={self.name!r})"


class McpConnection:
    """A started, initialized MCP server and the tools it listed.

    Calls may come from several tasks at once (the protocol multiplexes them).
    """

    def __init__(
        self,
        config: McpServerConfig,
        session: ClientSession,
        tools: list[ListedTool],
        marks: dict[str, bool],
    ) -> None:
        self.config = config
        self.tools = {tool.name: tool for tool in tools}
        self._session = session
        self._marks = marks
        self.broken = False

    def __repr__(self) -> str:
        return f"McpConnection(server={self.config.name!r}, tools={len(self.tools)})"

    async def call(
        self, tool: str, arguments: Mapping[str, Any], timeout_s: float
    ) -> Any:
        """Call ``tool`` once and return the SDK's ``CallToolResult``.

        Raises:
            McpCallError: No usable answer within ``timeout_s`` (the reason code
                says why).
        """
        if self.broken:
            raise McpCallError(
                "mcp_unavailable", "the MCP server is no longer available"
            )
        result = None
        failure: Exception | None = None
        with anyio.move_on_after(timeout_s):
            try:
                result = await self._session.call_tool(tool, dict(arguments))
            except Exception as exc:  # a closed connection, a protocol error
                failure = exc
        if self._marks.get("oversized"):
            self.broken = True
            raise McpCallError(
                "mcp_result_too_large",
                f"the MCP server's answer is larger than {MAX_MESSAGE_BYTES} bytes",
            )
        if failure is not None and not _is_protocol_rejection(failure):
            self.broken = True
            raise McpCallError("mcp_unavailable", "the MCP server did not answer")
        if failure is not None:
            raise McpCallError("mcp_tool_error", "the MCP server refused the call")
        if result is None:
            raise McpCallError(
                "mcp_unavailable",
                f"the MCP server did not answer within {round(timeout_s * 1000)} ms",
            )
        return result


def _is_protocol_rejection(exc: Exception) -> bool:
    """A JSON-RPC error answer (the server is alive and said no), not a failure."""
    from mcp.shared.exceptions import MCPError
    from mcp_types import CONNECTION_CLOSED

    return isinstance(exc, MCPError) and exc.code != CONNECTION_CLOSED


def _server_environment(config: McpServerConfig) -> dict[str, str]:
    env = {key: os.environ[key] for key in _INHERITED if key in os.environ}
    return env | dict(config.env)


@contextlib.asynccontextmanager
async def _stdio(
    config: McpServerConfig, cleanup_s: float, marks: dict[str, bool]
) -> AsyncIterator[tuple[Any, Any]]:
    """The server's process and the SDK-facing message streams over its pipes."""
    import mcp_types
    from mcp.shared.message import SessionMessage

    assert config.command is not None
    try:
        process = await anyio.open_process(
            [sys.executable, "-I", str(_LAUNCHER), *config.command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=config.cwd,
            env=_server_environment(config),
            start_new_session=True,
        )
    except OSError:
        raise UnsupportedError(
            f"MCP server {config.name!r} could not be started", reason="mcp_unavailable"
        ) from None
    to_session, from_server = anyio.create_memory_object_stream[Any](16)
    to_server, from_session = anyio.create_memory_object_stream[Any](16)

    async def read() -> None:
        assert process.stdout is not None
        buffer = b""
        async with to_session:
            with contextlib.suppress(
                anyio.EndOfStream,
                anyio.ClosedResourceError,
                anyio.BrokenResourceError,
                OSError,
            ):
                async for chunk in process.stdout:
                    buffer += chunk
                    *lines, buffer = buffer.split(b"\n")
                    for line in lines:
                        if not line.strip():
                            continue
                        try:
                            message = mcp_types.jsonrpc_message_adapter.validate_json(
                                line, by_name=False
                            )
                        except ValueError:
                            marks["protocol_error"] = True
                            return
                        await to_session.send(SessionMessage(message))
                    if len(buffer) > MAX_MESSAGE_BYTES:
                        marks["oversized"] = True
                        return

    async def write() -> None:
        assert process.stdin is not None
        with contextlib.suppress(
            anyio.ClosedResourceError, anyio.BrokenResourceError, OSError
        ):
            async with from_session:
                async for item in from_session:
                    text = item.message.model_dump_json(
                        by_alias=True, exclude_unset=True
                    )
                    await process.stdin.send(text.encode("utf-8") + b"\n")

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(read)
            group.start_soon(write)
            try:
                yield from_server, to_server
            finally:
                group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await _end_process(process, cleanup_s)


async def _end_process(process: Process, cleanup_s: float) -> None:
    """End the server's process group: stdin closed, then SIGKILL, both bounded."""
    with anyio.move_on_after(max(cleanup_s, 0.05)):
        with contextlib.suppress(OSError, anyio.BrokenResourceError):
            if process.stdin is not None:
                await process.stdin.aclose()
        with anyio.move_on_after(cleanup_s / 4):
            await process.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with anyio.move_on_after(max(cleanup_s, 0.05)), contextlib.suppress(OSError):
        await process.aclose()
    # the asyncio transport stays open (and warns) until closed explicitly
    transport = getattr(getattr(process, "_process", None), "_transport", None)
    close = getattr(transport, "close", None)
    if callable(close):
        with contextlib.suppress(OSError):
            close()


@contextlib.asynccontextmanager
async def _http(config: McpServerConfig) -> AsyncIterator[tuple[Any, Any]]:
    from mcp.client.streamable_http import streamable_http_client

    assert config.url is not None
    async with streamable_http_client(config.url) as (read_stream, write_stream):
        yield read_stream, write_stream


def _listed(tool: Any) -> ListedTool:
    return ListedTool(
        name=str(tool.name),
        description=str(tool.description or ""),
        input_schema=dict(tool.input_schema),
        output_schema=None if tool.output_schema is None else dict(tool.output_schema),
    )


@contextlib.asynccontextmanager
async def connect(
    config: McpServerConfig, *, cleanup_s: float
) -> AsyncIterator[McpConnection]:
    """Start (or reach) the server, initialize it and list its tools.

    Failures of the body propagate unchanged; closing never raises.

    Args:
        config: The trusted server entry.
        cleanup_s: How long closing may take (a stdio server's process group is
            killed by then).

    Raises:
        UnsupportedError: The server cannot be started or reached, or does not
            answer the handshake or the listing within its startup timeout
            (``mcp_unavailable``; exit 3).
    """
    from mcp.client.session import ClientSession

    marks: dict[str, bool] = {}
    stack = contextlib.AsyncExitStack()
    tools: list[ListedTool] | None = None
    try:
        if config.command is not None:
            streams = await stack.enter_async_context(_stdio(config, cleanup_s, marks))
        else:
            streams = await stack.enter_async_context(_http(config))
        session = await stack.enter_async_context(ClientSession(*streams))
        with anyio.move_on_after(config.startup_timeout_ms / 1000):
            await session.initialize()
            tools = await _list_all(session)
    except BaseException as exc:
        await _close(stack, cleanup_s)
        if isinstance(exc, anyio.get_cancelled_exc_class()):
            # the transport's own task group cancels this code when it fails
            # (a refused connection): only an outer cancellation propagates
            await anyio.lowlevel.checkpoint_if_cancelled()
        elif isinstance(exc, UnsupportedError) or not isinstance(exc, Exception):
            raise
        tools = None
    if tools is None:
        await _close(stack, cleanup_s)
        raise UnsupportedError(
            f"MCP server {config.name!r} did not start and list its tools",
            reason="mcp_unavailable",
        )
    try:
        yield McpConnection(config, session, tools, marks)
    finally:
        await _close(stack, cleanup_s)


async def _close(stack: contextlib.AsyncExitStack, cleanup_s: float) -> None:
    """Close a connection's parts; nothing is raised.

    No cancel scope is opened around it: the parts' task groups must be left in
    the scope they were entered in. Each part bounds its own shutdown (the stdio
    transport's is shielded and ends the process group within ``cleanup_s``).
    """
    del cleanup_s
    with contextlib.suppress(Exception):
        await stack.aclose()


async def _list_all(session: ClientSession) -> list[ListedTool]:
    """Every listed tool, following pagination (at most 64 pages)."""
    import mcp_types

    found: list[ListedTool] = []
    cursor: str | None = None
    for _ in range(64):
        params = (
            None if cursor is None else mcp_types.PaginatedRequestParams(cursor=cursor)
        )
        page = await session.list_tools(params=params)
        found.extend(_listed(tool) for tool in page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return found
