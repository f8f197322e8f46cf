"""The tools a workflow may declare, as the contract reads them: interfaces by name.

The loaders and validation take a `DeclaredTools`: the built-in interfaces plus
the host's own tools, with no two of the same name. ``artemiskit.tools.Catalogue``
is the same mapping holding runnable tools (interfaces plus handlers); the
contract never needs a handler, so it never imports one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar, cast

from artemiskit._errors import ToolDefinitionError

if TYPE_CHECKING:
    from artemiskit.workflow._checks import DeclaredTool

__all__ = ["DeclaredTools", "builtin_declared_tools", "declared_tools"]

_T = TypeVar("_T", bound="DeclaredTool", covariant=True)

#: What a declared tool offers the contract (a `ToolInterface` or a `Tool`).
_DECLARED = ("name", "effect", "allow_required", "allow_keys", "schema_problem")


class DeclaredTools(Mapping[str, _T]):
    """Tool interfaces by name, in catalogue order; compared by identity.

    Args:
        tools: The tools, each with a name no other has.

    Raises:
        ToolDefinitionError: An entry is not a tool, or two share a name (built-in
            names are reserved).
    """

    def __init__(self, tools: Iterable[_T]) -> None:
        self._tools: dict[str, _T] = {}
        for tool in tools:
            self._admit(tool)

    def _admit(self, tool: DeclaredTool) -> None:
        if not all(hasattr(tool, part) for part in _DECLARED):
            raise ToolDefinitionError(
                f"not a Tool: {type(tool).__name__}", reason="invalid_tool"
            )
        if tool.name in self._tools:
            raise ToolDefinitionError(
                f"tool {tool.name!r} is already in the catalogue; a tool cannot "
                "replace another (built-in names are reserved)",
                reason="tool_name_clash",
            )
        self._tools[tool.name] = cast("_T", tool)

    # Schemas compiled for a set of tools are cached by it: it is an identity.
    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other

    def __getitem__(self, name: str) -> _T:
        return self._tools[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self._tools)} tools)"


_BUILTIN: DeclaredTools[DeclaredTool] | None = None


def builtin_declared_tools() -> DeclaredTools[DeclaredTool]:
    """The built-in interfaces alone (made once)."""
    global _BUILTIN
    if _BUILTIN is None:
        from artemiskit.workflow._interfaces import BUILTIN_INTERFACES

        _BUILTIN = DeclaredTools(BUILTIN_INTERFACES.values())
    return _BUILTIN


def declared_tools(
    tools: Sequence[DeclaredTool] | DeclaredTools[DeclaredTool] | None,
) -> DeclaredTools[DeclaredTool]:
    """The built-in interfaces plus ``tools``.

    Args:
        tools: The host's own tools, or a set already made (such as a tool
            catalogue, returned as it is); ``None`` or empty for the built-ins.

    Raises:
        ToolDefinitionError: ``tools`` is not a sequence of tools, or a name
            clashes (including a built-in name).
    """
    if isinstance(tools, DeclaredTools):
        return tools
    if not tools:
        return builtin_declared_tools()
    if isinstance(tools, (str, bytes, Mapping)):
        raise ToolDefinitionError(
            "tools must be a sequence of Tool objects", reason="invalid_tool"
        )
    merged: DeclaredTools[DeclaredTool] = DeclaredTools(
        (*builtin_declared_tools().values(), *tools)
    )
    return merged
