"""What a tool handler receives and returns."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import attrs

from artemiskit._common._digests import json_digest
from artemiskit.engine._state import LocalState
from artemiskit.environments._base import Environment
from artemiskit.records._verification import StateChange
from artemiskit.workflow._model import ToolAllow

__all__ = ["Handler", "ToolContext", "ToolFailure", "ToolResult", "digest"]


def digest(value: Any) -> str | None:
    """A sha256 over the canonical JSON of ``value`` (``None`` stays ``None``)."""
    return None if value is None else json_digest(value)


@attrs.frozen(kw_only=True)
class ToolContext:
    """What a handler may use: the environment's files and the detached state."""

    environment: Environment
    local: LocalState
    allow: ToolAllow
    new_id: Callable[[str], str]


@attrs.frozen(kw_only=True)
class ToolResult:
    """A successful tool result, the next detached state and the change evidence."""

    output: dict[str, Any]
    local: LocalState | None = None
    change: StateChange | None = None


class ToolFailure(Exception):
    """A tool request that failed in a way the model is told about.

    ``code`` is a stable reason code; ``message`` is safe to show to the model (it is
    never put in records).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


Handler = Callable[[Mapping[str, Any], ToolContext], Awaitable[ToolResult]]
