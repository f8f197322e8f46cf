"""The tool catalogue: the built-in tools of SPEC 3.1 plus any the host registers.

The built-in list is assembled from the family modules; each tool is whole there.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal

from artemiskit._common._digests import json_digest
from artemiskit._errors import ToolDefinitionError
from artemiskit.tools._documents import DOCUMENT_TOOLS
from artemiskit.tools._files import FILE_TOOLS
from artemiskit.tools._messages import MESSAGE_TOOLS
from artemiskit.tools._records import RECORD_TOOLS
from artemiskit.tools._tool import Tool

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "BUILTIN_CATALOGUE",
    "BUILTIN_TOOLS",
    "CATALOGUE",
    "Catalogue",
    "catalogue_with",
    "schema_problem",
]

#: The built-in tools of SPEC 3.1, in catalogue order.
BUILTIN_TOOLS: tuple[Tool, ...] = (
    *FILE_TOOLS,
    *DOCUMENT_TOOLS,
    *RECORD_TOOLS,
    *MESSAGE_TOOLS,
)


class Catalogue(Mapping[str, Tool]):
    """The tools a run may declare, by name: the built-ins and registered ones."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            if not isinstance(tool, Tool):
                raise ToolDefinitionError(
                    f"not a Tool: {type(tool).__name__}", reason="invalid_tool"
                )
            if tool.name in self._tools:
                raise ToolDefinitionError(
                    f"tool {tool.name!r} is already in the catalogue; a tool cannot "
                    "replace another (built-in names are reserved)",
                    reason="tool_name_clash",
                )
            self._tools[tool.name] = tool

    # A catalogue is an identity: schemas compiled for it are cached by it.
    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other

    def __getitem__(self, name: str) -> Tool:
        return self._tools[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def __repr__(self) -> str:
        return f"Catalogue({len(self._tools)} tools)"

    def digest(self, names: Iterable[str]) -> str:
        """The digest of the named tools' declarations (handlers excluded)."""
        return json_digest([self._tools[n].declaration() for n in sorted(set(names))])


BUILTIN_CATALOGUE = Catalogue(BUILTIN_TOOLS)
#: The built-in catalogue by name (kept for readers of the former table).
CATALOGUE: Mapping[str, Tool] = BUILTIN_CATALOGUE


def catalogue_with(tools: Sequence[Tool] | Catalogue | None) -> Catalogue:
    """The built-in catalogue plus ``tools``.

    Args:
        tools: User-defined tools (or a catalogue already built); ``None`` or empty
            for the built-ins only.

    Raises:
        ToolDefinitionError: An entry is not a `Tool`, or two tools share a name
            (including a built-in name).
    """
    if isinstance(tools, Catalogue):
        return tools
    if not tools:
        return BUILTIN_CATALOGUE
    if isinstance(tools, (str, bytes, Mapping)):
        raise ToolDefinitionError(
            "tools must be a sequence of Tool objects", reason="invalid_tool"
        )
    return Catalogue((*BUILTIN_TOOLS, *tools))


def schema_problem(
    tool: str, which: Literal["input", "output"], value: Any
) -> str | None:
    """Check a built-in tool's arguments or result against its schema."""
    return CATALOGUE[tool].schema_problem(which, value)
