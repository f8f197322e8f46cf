"""The ``mcp_servers`` part of the trusted configuration (SPEC 24).

An MCP server is trusted host code, like a custom tool: the configuration (never a
workflow) says how to start or reach it. A stdio server is a command (a list: no
shell) with optional environment variables and working folder (relative to the
configuration file's folder, which is also the default); a streamable HTTP server
is a URL. ``lifetime`` says whether each run starts its own server (``run``,
the default) or a suite shares one across its runs (``suite``).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, Literal, Protocol

import attrs

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["MCP_SERVER_NAME", "McpServerConfig", "McpServerSource", "mcp_servers_from"]

#: What an ``mcp_servers`` entry name (and a workflow's ``mcp.server``) looks like.
MCP_SERVER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,63}")
_KEYS = ("command", "env", "cwd", "url", "lifetime", "startup_timeout_ms")
_MAX_STARTUP_MS = 120_000


@attrs.frozen(kw_only=True)
class McpServerConfig:
    """How to start or reach one MCP server.

    Attributes:
        name: The entry name workflows refer to (``mcp: {server: NAME}``).
        command: For stdio: the executable and its arguments (no shell).
        env: For stdio: extra environment variables (values never shown).
        cwd: For stdio: the working folder of the server process (from a file:
            resolved against the file's folder, which is the default).
        url: For streamable HTTP: the endpoint URL.
        lifetime: ``run`` (a server per run, the default) or ``suite`` (one server
            shared by every run of a suite; records say so).
        startup_timeout_ms: How long starting and listing the server may take.
    """

    name: str
    command: tuple[str, ...] | None = None
    env: dict[str, str] = attrs.field(factory=dict, repr=False)
    cwd: str | None = None
    url: str | None = None
    lifetime: Literal["run", "suite"] = "run"
    startup_timeout_ms: int = 30_000

    @property
    def transport(self) -> Literal["stdio", "streamable_http"]:
        """``stdio`` for a command, ``streamable_http`` for a URL."""
        return "stdio" if self.command is not None else "streamable_http"


class McpServerSource(Protocol):
    """What names MCP servers: a `TrustedConfig` (its ``mcp_servers`` part).

    Tools sit below the trusted configuration in the layers, so they name this
    protocol rather than the configuration class.
    """

    @property
    def mcp_servers(self) -> Mapping[str, McpServerConfig]:
        """The MCP servers by name (SPEC 24)."""
        ...


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def mcp_servers_from(
    raw: Any,
    report: Callable[[tuple[str | int, ...], str], None],
    *,
    folder: str | None = None,
) -> dict[str, McpServerConfig]:
    """Check and build the ``mcp_servers`` mapping.

    Args:
        raw: The expanded ``mcp_servers`` value.
        report: Records a problem at a key path.
        folder: The configuration file's folder: a stdio server's default and
            the base of a relative ``cwd`` (``None``: the process's own).

    Returns:
        The entries by name (those without problems).
    """
    servers: dict[str, McpServerConfig] = {}
    if not isinstance(raw, dict):
        report(("mcp_servers",), "must be a mapping of MCP server entries")
        return servers
    for name, entry in raw.items():
        path: tuple[str | int, ...] = ("mcp_servers", name)
        if not isinstance(name, str) or not MCP_SERVER_NAME.fullmatch(name):
            report(path, "an MCP server name must match [A-Za-z][A-Za-z0-9_.-]*")
            continue
        built = _server(name, entry, path, report, folder)
        if built is not None:
            servers[name] = built
    return servers


def _server(
    name: str,
    entry: Any,
    path: tuple[str | int, ...],
    report: Callable[[tuple[str | int, ...], str], None],
    folder: str | None,
) -> McpServerConfig | None:
    if not isinstance(entry, dict):
        report(path, "must be a mapping with command (stdio) or url (HTTP)")
        return None
    ok = True
    for key in entry:
        if key not in _KEYS:
            report((*path, key), f"is not a known key (known keys: {', '.join(_KEYS)})")
            ok = False
    command, url = entry.get("command"), entry.get("url")
    if (command is None) == (url is None):
        report(path, "give either command (stdio) or url (streamable HTTP)")
        return None
    if command is not None and (not _strings(command) or not command):
        report((*path, "command"), "must be a non-empty list of strings (no shell)")
        ok = False
    if url is not None and (
        not isinstance(url, str) or not url.startswith(("http://", "https://"))
    ):
        report((*path, "url"), "must be an http:// or https:// URL")
        ok = False
    env = entry.get("env", {})
    if not isinstance(env, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in env.items()
    ):
        report((*path, "env"), "must map variable names to strings")
        ok = False
    cwd = entry.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        report((*path, "cwd"), "must be a string")
        ok = False
    if url is not None and ("env" in entry or "cwd" in entry):
        report(path, "env and cwd apply only to a stdio server (command)")
        ok = False
    lifetime = entry.get("lifetime", "run")
    if lifetime not in ("run", "suite"):
        report((*path, "lifetime"), "must be run or suite")
        ok = False
    startup = entry.get("startup_timeout_ms", 30_000)
    if (
        not isinstance(startup, int)
        or isinstance(startup, bool)
        or not 1 <= startup <= _MAX_STARTUP_MS
    ):
        report((*path, "startup_timeout_ms"), f"must be an integer 1–{_MAX_STARTUP_MS}")
        ok = False
    if not ok:
        return None
    if command is not None and folder is not None:
        cwd = os.path.join(folder, cwd) if cwd is not None else folder
    return McpServerConfig(
        name=name,
        command=None if command is None else tuple(command),
        env=dict(env),
        cwd=cwd,
        url=url,
        lifetime=lifetime,
        startup_timeout_ms=startup,
    )
