"""Custom scorers (SPEC 20): a name, a version, a schema for ``with:`` and a handler.

A `Scorer` decides one requirement from read-only `Evidence` of a completed run and
returns a `Score`. The engine runs it with a timeout; a scorer that raises, hangs or
returns something else than a `Score` makes its requirement ``unavailable`` with a
reason code, never a crash, and only that code is recorded.
"""

from __future__ import annotations

import inspect
import json
import math
import re
import types
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal

import attrs

from artemiskit._errors import ScorerDefinitionError

__all__ = [
    "MAX_SCORER_TIMEOUT_MS",
    "Evidence",
    "Score",
    "ScoreStatus",
    "Scorer",
    "ScorerHandler",
    "ToolCallEvidence",
    "freeze",
]

ScoreStatus = Literal["passed", "failed", "unavailable"]
#: A scorer may take at most this long (the default is 10,000 ms).
MAX_SCORER_TIMEOUT_MS = 600_000
#: Reason codes are metadata: lower-case letters, digits and ``_``.
_CODE = re.compile(r"[a-z0-9_]{1,64}")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}")


def freeze(value: Any) -> Any:
    """A read-only copy of JSON-like data: mappings become read-only, lists tuples."""
    if isinstance(value, Mapping):
        return types.MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


@attrs.frozen(kw_only=True)
class Score:
    """What a scorer decided.

    Attributes:
        status: ``passed``, ``failed`` or ``unavailable``.
        reason: A reason code (``[a-z0-9_]{1,64}``); it is recorded, so it must
            not carry content.
        value: An optional finite number (e.g. a similarity), recorded.

    Raises:
        ValueError: A field is invalid.
    """

    status: ScoreStatus
    reason: str
    value: float | None = None

    def __attrs_post_init__(self) -> None:
        if self.status not in ("passed", "failed", "unavailable"):
            raise ValueError("status must be passed, failed or unavailable")
        if not isinstance(self.reason, str) or not _CODE.fullmatch(self.reason):
            raise ValueError("reason must be a code matching [a-z0-9_]{1,64}")
        value = self.value
        if value is not None and (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise ValueError("value must be a finite number or None")


@attrs.frozen(kw_only=True, repr=False)
class ToolCallEvidence:
    """One logical tool call as the model asked for it, with how it ended.

    Attributes:
        name: The tool the model named.
        arguments: Its original arguments (read-only), or ``None`` when the model's
            arguments were not a JSON object.
        status: ``succeeded``, ``failed`` or ``denied``.
    """

    name: str
    arguments: Mapping[str, Any] | None
    status: Literal["succeeded", "failed", "denied"]

    def __repr__(self) -> str:
        return f"ToolCallEvidence(name={self.name!r}, status={self.status!r})"


@attrs.frozen(kw_only=True, repr=False)
class Evidence:
    """What a scorer sees of a completed run: read-only copies.

    Attributes:
        final_state: The final state (SPEC 3.1 layout), read-only.
        final_response: The model's last text answer.
        tool_calls: Every logical tool call in order, denied ones included.
        transcript: The conversation, one read-only mapping per message
            (``role``, ``content``, ``tool_calls``, ``tool_call_id``).
    """

    final_state: Mapping[str, Any]
    final_response: str | None
    tool_calls: tuple[ToolCallEvidence, ...]
    transcript: tuple[Mapping[str, Any], ...]

    def __repr__(self) -> str:
        return (
            f"Evidence(tool_calls={len(self.tool_calls)}, "
            f"messages={len(self.transcript)})"
        )


#: ``async (evidence, params) -> Score``.
ScorerHandler = Callable[[Evidence, Mapping[str, Any]], Awaitable[Score]]


def _refuse(name: object, message: str) -> ScorerDefinitionError:
    return ScorerDefinitionError(f"scorer {name!r}: {message}", reason="invalid_scorer")


@attrs.frozen(kw_only=True, repr=False, eq=False)
class Scorer:
    """A custom scorer, registered like a tool.

    Attributes:
        name: What ``scorer:`` outcomes name (letters, digits, ``.``, ``_``, ``:``,
            ``-``; at most 128 characters).
        version: Bound in checkpoints and recorded: a resume under another version
            is refused.
        handler: ``async (evidence, params) -> Score``; ``params`` is the
            outcome's ``with:`` mapping (read-only).
        description: What the scorer decides.
        params_schema: A JSON Schema ``with:`` must satisfy (checked offline, at
            validation); default: an object with any keys.
        timeout_ms: How long the handler may take (default 10,000 ms); past it,
            the requirement is unavailable (``scorer_timeout``).

    Raises:
        ScorerDefinitionError: A field is invalid.
    """

    name: str
    version: str
    handler: ScorerHandler
    description: str = ""
    params_schema: Mapping[str, Any] = attrs.field(factory=lambda: {"type": "object"})
    timeout_ms: int = 10_000

    def __attrs_post_init__(self) -> None:
        name = self.name
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise _refuse(
                name,
                "a scorer name must start with a letter or digit and use only "
                "letters, digits, '.', '_', ':' and '-' (at most 128 characters)",
            )
        if not isinstance(self.version, str) or not self.version:
            raise _refuse(name, "version must be a non-empty string")
        if not callable(self.handler) or not (
            inspect.iscoroutinefunction(self.handler)
            or inspect.iscoroutinefunction(getattr(self.handler, "__call__", None))  # noqa: B004
        ):
            raise _refuse(name, "handler must be an async function")
        timeout = self.timeout_ms
        if (
            isinstance(timeout, bool)
            or not isinstance(timeout, int)
            or not 1 <= timeout <= MAX_SCORER_TIMEOUT_MS
        ):
            raise _refuse(name, f"timeout_ms must be 1-{MAX_SCORER_TIMEOUT_MS}")
        _check_params_schema(name, self.params_schema)

    def __repr__(self) -> str:
        return f"Scorer(name={self.name!r}, version={self.version!r})"

    @property
    def params_validator(self) -> Callable[[Any], Any]:
        """The compiled ``params_schema`` (compiled once, shared by equal schemas).

        It raises ``fastjsonschema.JsonSchemaValueException`` for parameters
        that break the schema.
        """
        from artemiskit._common._json_schema import compile_json_schema

        return compile_json_schema(json.dumps(self.params_schema, sort_keys=True))


def _check_params_schema(name: str, schema: Any) -> None:
    from artemiskit._common._json_schema import json_schema_problem

    if not isinstance(schema, Mapping) or schema.get("type", "object") != "object":
        raise _refuse(name, "params_schema must be a JSON Schema of an object")
    try:
        problem = json_schema_problem(dict(schema))
    except (TypeError, ValueError):
        problem = "is not JSON data"
    if problem is not None:
        raise _refuse(name, f"params_schema {problem}")
