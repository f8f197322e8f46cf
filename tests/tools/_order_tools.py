"""User-defined tools for the tests: the documented example and variants of it.

Importable as ``tests.tools._order_tools`` from the repository root, so subprocesses
can pass ``--tools tests.tools._order_tools:TOOLS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from artemiskit.tools import CATALOGUE, ToolContext, ToolResult
from examples.custom_tool.order_tools import FILE_REFUND, LOOKUP_ORDER

__all__ = [
    "CLASHING",
    "EXAMPLE",
    "LOOKUP_ORDER",
    "MALFORMED_LOOKUP",
    "TOOLS",
    "TOOLS_V2",
]

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "custom_tool"

TOOLS = (LOOKUP_ORDER, FILE_REFUND)
#: The same tools, ``file_refund`` at another version.
TOOLS_V2 = (LOOKUP_ORDER, attrs.evolve(FILE_REFUND, version="2"))


async def _malformed(arguments: Mapping[str, Any], ctx: ToolContext) -> ToolResult:
    return ToolResult(output={"id": arguments["id"], "status": "lost", "total": -1})


#: ``lookup_order`` whose handler breaks its own output schema.
MALFORMED_LOOKUP = attrs.evolve(LOOKUP_ORDER, handler=_malformed)

#: A registration that reuses a built-in name.
CLASHING = (*TOOLS, CATALOGUE["read_file"])
