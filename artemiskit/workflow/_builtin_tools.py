"""The built-in tools' declarations as data (SPEC 3.1): ``builtin_tools.json``.

The one source of what each built-in tool is: name, description, schemas, effect,
resource and version. `ToolInterface` objects are made from it for the tools and
the engine; a cold validation reads the same entries as plain JSON (it loads no
attrs), so no copy of the declarations exists to go stale. The file is edited by
hand, in catalogue order; a tool's handler lives in ``artemiskit.tools``.
"""

from __future__ import annotations

import functools
import json
import pathlib
from typing import Any

__all__ = ["BUILTIN_TOOLS_FILE", "builtin_tool_data"]

#: The built-in tools' declarations, in catalogue order.
BUILTIN_TOOLS_FILE = pathlib.Path(__file__).with_name("builtin_tools.json")


@functools.cache
def builtin_tool_data() -> tuple[dict[str, Any], ...]:
    """The declarations, read once: one JSON object per tool, in catalogue order."""
    loaded: list[dict[str, Any]] = json.loads(
        BUILTIN_TOOLS_FILE.read_text(encoding="utf-8")
    )
    return tuple(loaded)
