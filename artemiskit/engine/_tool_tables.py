"""The tool tables of a workflow under a catalogue, built once and shared.

What the model is offered (`ToolDefinition` per declared tool) and what admission
looks up (declarations, tools and ``allow`` by name) depend only on the workflow
and the catalogue, both frozen: 1000 sessions of one workflow share one set of
tables instead of rebuilding them per session. A run with MCP tools builds its
own, since its catalogue is its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

import attrs

from artemiskit.targets._protocol import ToolDefinition
from artemiskit.tools._tool import Tool
from artemiskit.workflow._model import ToolDeclaration

if TYPE_CHECKING:
    from artemiskit.tools._catalogue import Catalogue
    from artemiskit.workflow._model import Workflow

__all__ = ["ToolTables", "build_tool_tables", "tool_tables"]


@attrs.frozen(kw_only=True)
class ToolTables:
    """A workflow's declared tools, looked up by name (read-only mappings).

    Attributes:
        definitions: What the model is offered: the declared tools, in order.
        declared: Each declaration by tool name.
        tools: Each declared tool's implementation by name.
        allow: Each declared tool's ``allow`` (key → globs) by name; a run
            hands its handlers its own copies (`allow_copies`).
    """

    definitions: tuple[ToolDefinition, ...]
    declared: Mapping[str, ToolDeclaration]
    tools: Mapping[str, Tool]
    allow: Mapping[str, Mapping[str, tuple[str, ...]]]

    def allow_copies(self) -> dict[str, dict[str, tuple[str, ...]]]:
        """A run's own ``allow`` mappings (a handler may change its copy)."""
        return {name: dict(allow) for name, allow in self.allow.items()}


def build_tool_tables(workflow: Workflow, catalogue: Catalogue) -> ToolTables:
    """The tables of ``workflow``'s declared tools, all in ``catalogue``."""
    declared = workflow.tools
    return ToolTables(
        definitions=tuple(
            ToolDefinition(
                name=tool.name,
                description=catalogue[tool.name].description,
                input_schema=catalogue[tool.name].input_schema,
            )
            for tool in declared
        ),
        declared=MappingProxyType({tool.name: tool for tool in declared}),
        tools=MappingProxyType({tool.name: catalogue[tool.name] for tool in declared}),
        allow=MappingProxyType(
            {tool.name: MappingProxyType(tool.allow.as_mapping()) for tool in declared}
        ),
    )


def tool_tables(workflow: Workflow, catalogue: Catalogue) -> ToolTables:
    """`build_tool_tables`, remembered for the pair of objects (both frozen)."""
    key = (id(workflow), id(catalogue))
    kept = _TABLES.get(key)
    if kept is not None and kept[0] is workflow and kept[1] is catalogue:
        return kept[2]
    tables = build_tool_tables(workflow, catalogue)
    if len(_TABLES) >= _TABLES_KEPT:
        _TABLES.clear()
    _TABLES[key] = (workflow, catalogue, tables)
    return tables


#: Tables of recent (workflow, catalogue) pairs by object ids; an entry keeps
#: both alive, so neither id can be reused by another object while remembered.
_TABLES: dict[tuple[int, int], tuple[Workflow, Catalogue, ToolTables]] = {}
_TABLES_KEPT = 256
