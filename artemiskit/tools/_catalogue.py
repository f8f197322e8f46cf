"""The tool catalogue: the built-in tools of SPEC 3.1 plus any the host registers.

The built-in list is assembled from the family modules; each tool is whole there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from artemiskit._common._digests import json_digest
from artemiskit._errors import ToolDefinitionError
from artemiskit.tools._documents import DOCUMENT_TOOLS
from artemiskit.tools._files import FILE_TOOLS
from artemiskit.tools._messages import MESSAGE_TOOLS
from artemiskit.tools._records import RECORD_TOOLS
from artemiskit.tools._tool import Tool
from artemiskit.workflow._declared_tools import DeclaredTools

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


class Catalogue(DeclaredTools[Tool]):
    """The tools a run may use, by name: the built-ins and registered ones.

    The contract's `DeclaredTools` holding runnable `Tool` objects (an interface
    plus a handler each); compared by identity.

    Raises:
        ToolDefinitionError: An entry is not a `Tool`, or two share a name.
    """

    def __init__(self, tools: Iterable[Tool]) -> None:
        super().__init__(())
        for tool in tools:
            if not isinstance(tool, Tool):
                raise ToolDefinitionError(
                    f"not a Tool: {type(tool).__name__}", reason="invalid_tool"
                )
            self._admit(tool)

    def digest(self, names: Iterable[str]) -> str:
        """The digest of the named tools' declarations (handlers excluded)."""
        return json_digest([self._tools[n].declaration() for n in sorted(set(names))])


BUILTIN_CATALOGUE = Catalogue(BUILTIN_TOOLS)
#: The built-in catalogue by name (kept for readers of the former table).
CATALOGUE: Catalogue = BUILTIN_CATALOGUE


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
