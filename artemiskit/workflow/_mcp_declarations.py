"""MCP tool declarations as the offline checks read them (SPEC 24).

A workflow declares an MCP tool under a name of its own choosing (``{name, mcp:
{server, tool}, ...}``), so the tools a workflow may name are the host's catalogue
plus its own MCP declarations. Offline, nothing is known of the server: not its
schemas, not even whether it runs; the checks read only what the declaration says
(effect, resource key). This module imports neither the ``mcp`` SDK nor any tool.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from artemiskit.workflow._checks import DeclaredTool

__all__ = ["MCP_ONLY_KEYS", "McpDeclaration", "with_mcp_declarations"]

#: Declaration keys that only an MCP tool (one with ``mcp:``) may give.
MCP_ONLY_KEYS = ("resource", "effect", "schema_digest", "timeout_ms")
_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")


class McpDeclaration:
    """An MCP tool as the checks read it: its declared effect and resource key.

    Args:
        name: The name the workflow gives the tool.
        effect: The declared effect (``write`` when not declared).
        resource_key: The declared ``resource.key``, if any.
    """

    __slots__ = ("allow_keys", "allow_required", "effect", "name")

    def __init__(self, name: str, effect: str, resource_key: str | None) -> None:
        self.name = name
        self.effect = effect
        self.allow_required: tuple[str, ...] = (
            () if resource_key is None else (resource_key,)
        )
        self.allow_keys = self.allow_required

    def __repr__(self) -> str:
        return f"McpDeclaration(name={self.name!r}, effect={self.effect!r})"

    def schema_problem(
        self, which: Literal["input", "output"], value: Any
    ) -> str | None:
        """Always ``None``: the server's schemas are known only once it runs."""
        return None


class _Extended(Mapping[str, "DeclaredTool"]):
    """A catalogue plus one workflow's MCP declarations (hashable, for caching)."""

    def __init__(
        self, base: Mapping[str, DeclaredTool], added: dict[str, McpDeclaration]
    ) -> None:
        self._base = base
        self._added = added
        self._key = (
            id(base),
            tuple(
                (name, d.effect, d.allow_required) for name, d in sorted(added.items())
            ),
        )

    def __getitem__(self, name: str) -> DeclaredTool:
        if name in self._added:
            return self._added[name]
        return self._base[name]

    def __iter__(self) -> Iterator[str]:
        yield from self._base
        yield from self._added

    def __len__(self) -> int:
        return len(self._base) + len(self._added)

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Extended)
            and self._base is other._base
            and self._key == other._key
        )


def with_mcp_declarations(
    catalogue: Mapping[str, DeclaredTool], data: Any
) -> Mapping[str, DeclaredTool]:
    """``catalogue`` plus the MCP tools ``data`` (a workflow's plain data) declares.

    Only well-formed declarations are added (a name of the tool-name form that no
    catalogue tool has, with an ``mcp`` mapping); the checks report the others.
    Without any, ``catalogue`` itself is returned.
    """
    tools = data.get("tools") if isinstance(data, dict) else None
    if not isinstance(tools, list):
        return catalogue
    added: dict[str, McpDeclaration] = {}
    for entry in tools:
        if not isinstance(entry, dict) or not isinstance(entry.get("mcp"), dict):
            continue
        name = entry.get("name")
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            continue
        if name in catalogue or name in added:
            continue
        effect = entry.get("effect", "write")
        resource = entry.get("resource")
        key = resource.get("key") if isinstance(resource, dict) else None
        added[name] = McpDeclaration(
            name,
            effect if effect in ("read", "write") else "write",
            key if isinstance(key, str) else None,
        )
    if not added:
        return catalogue
    return _Extended(catalogue, added)
