"""Semantic checks of a workflow: the rules its JSON Schema cannot express.

They run on the plain data after the schema pass and skip any part the schema already
found broken (``sound(path)`` is false there), so each problem is reported once. Each
problem names the key path and the rule, never the offending value.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, Protocol

from artemiskit._common._glob_syntax import glob_syntax_problem
from artemiskit._common._limits import (
    MAX_ARGUMENT_STRING_BYTES,
    MAX_CONFLICTING_CONTENT_BYTES,
    MAX_ENVIRONMENT_BYTES,
    MAX_FAULT_FIXTURE_BYTES,
    MAX_FILE_BYTES,
    MAX_PATH_BYTES,
    MAX_RETRY_ATTEMPTS,
)
from artemiskit._common._paths import (
    normalize_path,
    path_problem,
    script_reference_problem,
)
from artemiskit._common._yaml import KeyPath, ParsedYaml
from artemiskit.workflow._outcome_checks import STATE_ROOTS, outcome_problems

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit._errors import Problem
    from artemiskit.workflow._declared_scorers import DeclaredScorer

__all__ = [
    "FIXTURE_SUFFIXES",
    "READ_ONLY_FAULT_KINDS",
    "STATE_ROOTS",
    "DeclaredTool",
    "check_environment_content",
    "glob_problem",
    "semantic_problems",
    "value_problems",
]

Sound = Callable[[KeyPath], bool]


class DeclaredTool(Protocol):
    """What the checks read of a tool: a `Tool`, or a built-in's declaration."""

    @property
    def name(self) -> str:
        """The tool's name."""

    @property
    def effect(self) -> str:
        """``read`` or ``write``."""

    @property
    def allow_required(self) -> tuple[str, ...]:
        """``allow`` keys a declaration must give."""

    @property
    def allow_keys(self) -> tuple[str, ...]:
        """Every ``allow`` key the tool understands."""

    def schema_problem(
        self, which: Literal["input", "output"], value: Any
    ) -> str | None:
        """Check arguments or an output against the tool's schema."""


#: Fault kinds that only make sense on a read tool.
READ_ONLY_FAULT_KINDS = frozenset(
    {"stale_read", "incomplete_read", "malformed_result", "conflicting_instructions"}
)
_CONFLICTING_TOOLS = ("read_file", "read_document")
_FIXTURE_FAULT_KINDS = ("stale_read", "incomplete_read")
#: File name endings a fixture reference may have.
FIXTURE_SUFFIXES = (".json", ".yaml", ".yml")


def _kib(limit: int) -> str:
    if limit % (1024 * 1024) == 0:
        return f"{limit // (1024 * 1024)} MiB ({limit} bytes)"
    return f"{limit // 1024} KiB ({limit} bytes)"


def _size(value: str) -> int:
    return len(value.encode("utf-8", "surrogatepass"))


_SURROGATE_RULE = "must be valid Unicode text (no lone surrogate escapes)"


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def glob_problem(pattern: str, *, is_path: bool) -> str | None:
    """Say why a resource glob is malformed, or return ``None``.

    Globs use ``*`` and ``?`` (within one path segment), bracket classes ``[abc]``,
    ``[a-z]``, ``[!abc]`` (never ``/``) and ``**`` (across segments; in path globs a
    whole segment). ``artemiskit._common._glob`` has the exact rules.

    Args:
        pattern: The glob.
        is_path: Whether it matches environment paths (the path rules apply).
    """
    if not pattern:
        return "glob is empty"
    if any(ord(c) < 32 or ord(c) == 127 for c in pattern):
        return "glob contains a control character"
    if _size(pattern) > MAX_PATH_BYTES:
        return f"glob is longer than {MAX_PATH_BYTES} bytes"
    problem = glob_syntax_problem(pattern)
    if problem is not None:
        return problem
    if is_path:
        problem = path_problem(pattern)
        if problem is not None:
            return problem.replace("path", "path glob", 1)
        if any("**" in s and s != "**" for s in pattern.split("/")):
            return "'**' must be a whole path segment"
    return None


def semantic_problems(
    data: Any,
    doc: ParsedYaml,
    sound: Sound,
    catalogue: Mapping[str, DeclaredTool],
    scorers: Mapping[str, DeclaredScorer] | None = None,
) -> list[Problem]:
    """List every semantic problem of a workflow whose sections passed the schema.

    Args:
        data: The plain workflow data.
        doc: The parsed document, for positions.
        sound: Tells whether the schema found nothing wrong at or under a path.
        catalogue: The tools the workflow may declare (their declarations only).
        scorers: The registered scorers by name; ``None`` leaves ``scorer``
            outcomes unchecked.
    """
    if not isinstance(data, dict):
        return []
    found = value_problems(data, doc)
    if isinstance(data.get("tags"), list) and sound(("tags",)):
        found += _repeated_tags(data["tags"], doc)
    tools = data.get("tools", [])
    declared: set[str] | None = None
    if isinstance(tools, list):
        names = [t.get("name") for t in tools if isinstance(t, dict)]
        declared = {n for n in names if isinstance(n, str) and n in catalogue}
        found += _tools(tools, doc, sound, catalogue)
    target = data.get("target")
    if isinstance(target, dict) and sound(("target",)):
        found += _target(target, doc)
    if isinstance(data.get("environment"), dict):
        found += _environment(data["environment"], doc, sound)
    if isinstance(data.get("outcomes"), list):
        found += _unique_ids(data["outcomes"], "outcomes", doc)
        found += outcome_problems(
            data["outcomes"],
            doc,
            sound,
            declared=declared,
            catalogue=catalogue,
            scorers=scorers,
        )
    if isinstance(data.get("faults"), list):
        found += _faults(data["faults"], declared, doc, sound, catalogue)
    return found


def value_problems(
    value: Any,
    doc: ParsedYaml,
    *,
    files_at: KeyPath = ("environment", "files"),
    path: KeyPath = (),
) -> list[Problem]:
    """Bound every string and refuse non-finite numbers, anywhere in a document.

    Args:
        value: The data to walk.
        doc: The parsed document, for positions.
        files_at: Where file contents sit; they have their own, larger bound.
        path: Where ``value`` sits in ``doc``.
    """
    if isinstance(value, dict):
        found = [
            doc.problem(_SURROGATE_RULE, (*path, key), at_key=True)
            for key in value
            if not _encodable(key)
        ]
        if path == files_at:  # contents have their own, larger bound
            return found + [
                doc.problem(_SURROGATE_RULE, (*path, key))
                for key, item in value.items()
                if isinstance(item, str) and not _encodable(item)
            ]
        return found + [
            p
            for key, item in value.items()
            for p in value_problems(item, doc, files_at=files_at, path=(*path, key))
        ]
    if isinstance(value, list):
        return [
            p
            for i, item in enumerate(value)
            for p in value_problems(item, doc, files_at=files_at, path=(*path, i))
        ]
    if isinstance(value, float) and not math.isfinite(value):
        return [doc.problem("must be a finite number", path)]
    if isinstance(value, str) and not _encodable(value):
        return [doc.problem(_SURROGATE_RULE, path)]
    if isinstance(value, str) and _size(value) > MAX_ARGUMENT_STRING_BYTES:
        limit = _kib(MAX_ARGUMENT_STRING_BYTES)
        return [doc.problem(f"must be at most {limit} in UTF-8", path)]
    return []


def _tools(
    tools: list[Any],
    doc: ParsedYaml,
    sound: Sound,
    catalogue: Mapping[str, DeclaredTool],
) -> list[Problem]:
    found: list[Problem] = []
    first: dict[str, int] = {}
    for index, tool in enumerate(tools):
        here: KeyPath = ("tools", index)
        if not sound(here):
            continue
        name = tool["name"]
        if name in first:
            message = f"declares a tool already declared at $.tools[{first[name]}]"
            found.append(doc.problem(message, (*here, "name")))
            continue
        first[name] = index
        spec = catalogue[name]
        mcp_problems = _mcp_declaration(tool, here, doc, spec)
        if mcp_problems:
            found += mcp_problems
            continue
        allow: dict[str, Any] = tool.get("allow", {})
        found.extend(
            doc.problem(f"is required for {name}", (*here, "allow", key))
            for key in spec.allow_required
            if key not in allow
        )
        for key, globs in allow.items():
            where = (*here, "allow", key)
            if key not in spec.allow_keys:
                accepts = ", ".join(spec.allow_keys)
                message = f"is not an allow key of {name} (it accepts: {accepts})"
                found.append(doc.problem(message, where, at_key=True))
                continue
            for cursor, glob in enumerate(globs):
                if not _encodable(glob):
                    continue  # value_problems reports it
                problem = glob_problem(glob, is_path=key == "paths")
                if problem is not None:
                    found.append(doc.problem(problem, (*where, cursor)))
    return found


def _mcp_declaration(
    tool: dict[str, Any], here: KeyPath, doc: ParsedYaml, spec: DeclaredTool
) -> list[Problem]:
    """The rules of an MCP tool declaration (SPEC 24) that the schema cannot say."""
    from artemiskit.workflow._mcp_declarations import MCP_ONLY_KEYS, McpDeclaration

    if "mcp" not in tool:
        return [
            doc.problem(
                "applies only to an MCP tool (a declaration with mcp: {server, tool})",
                (*here, key),
                at_key=True,
            )
            for key in MCP_ONLY_KEYS
            if key in tool
        ]
    if not isinstance(spec, McpDeclaration):
        message = "an MCP tool needs a name of its own: this one is a catalogue tool's"
        return [doc.problem(message, (*here, "name"))]
    return []


def _target(target: dict[str, Any], doc: ParsedYaml) -> list[Problem]:
    """A ``scripted`` model names ``MODEL.script.yaml`` under the fixture root."""
    if target["provider"] != "scripted" or not _encodable(target["model"]):
        return []
    problem = script_reference_problem(target["model"])
    if problem is None:
        return []
    message = (
        f"a scripted model names MODEL.script.yaml under the fixture root: {problem}"
    )
    return [doc.problem(message, ("target", "model"))]


def _environment(env: dict[str, Any], doc: ParsedYaml, sound: Sound) -> list[Problem]:
    found: list[Problem] = []
    fixture = env.get("fixture")
    if (
        isinstance(fixture, str)
        and _encodable(fixture)
        and sound(("environment", "fixture"))
    ):
        problem = path_problem(fixture)
        if problem is None and not fixture.lower().endswith(FIXTURE_SUFFIXES):
            problem = "fixture must be a .json, .yaml or .yml file"
        if problem is not None:
            found.append(doc.problem(problem, ("environment", "fixture")))
    if sound(("environment",)):
        found += check_environment_content(
            env.get("files", {}), env.get("state", {}), doc, ("environment",)
        )
    return found


def check_environment_content(
    files: dict[str, str],
    state: dict[str, Any],
    doc: ParsedYaml,
    base: KeyPath,
) -> list[Problem]:
    """Check the path rules and size limits of files and state (inline or fixture).

    Args:
        files: Path to text.
        state: ``{documents?, records?}``.
        doc: The parsed document, for positions.
        base: Where ``files`` and ``state`` sit in ``doc``.
    """
    found: list[Problem] = []
    seen: dict[str, str] = {}
    total = 0
    for path, content in files.items():
        where = (*base, "files", path)
        if not _encodable(path):
            continue  # value_problems reports it
        problem = path_problem(path)
        if problem is not None:
            found.append(doc.problem(problem, where, at_key=True))
            continue
        canonical = normalize_path(path)
        if canonical in seen:
            found.append(
                doc.problem("names the same file as another key", where, at_key=True)
            )
        seen[canonical] = path
        size = _size(content)
        total += size + _size(path)
        if size > MAX_FILE_BYTES:
            message = f"file is larger than {_kib(MAX_FILE_BYTES)}"
            found.append(doc.problem(message, where))
    total += _size(json.dumps(state, ensure_ascii=False, allow_nan=True))
    if total > MAX_ENVIRONMENT_BYTES:
        message = f"files and state are larger than {_kib(MAX_ENVIRONMENT_BYTES)}"
        found.append(doc.problem(message, base))
    return found


def _repeated_tags(tags: list[Any], doc: ParsedYaml) -> list[Problem]:
    found: list[Problem] = []
    first: dict[str, int] = {}
    for index, tag in enumerate(tags):
        if tag in first:
            message = f"repeats the tag of $.tags[{first[tag]}]"
            found.append(doc.problem(message, ("tags", index)))
        else:
            first[tag] = index
    return found


def _unique_ids(items: list[Any], section: str, doc: ParsedYaml) -> list[Problem]:
    found: list[Problem] = []
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            continue
        if item["id"] in first:
            message = f"repeats the id of $.{section}[{first[item['id']]}]"
            found.append(doc.problem(message, (section, index, "id")))
        else:
            first[item["id"]] = index
    return found


def _faults(
    faults: list[Any],
    declared: set[str] | None,
    doc: ParsedYaml,
    sound: Sound,
    catalogue: Mapping[str, DeclaredTool],
) -> list[Problem]:
    found = _unique_ids(faults, "faults", doc)
    per_occurrence: dict[tuple[str, int], int] = {}
    for index, fault in enumerate(faults):
        here: KeyPath = ("faults", index)
        if not sound(here):
            continue
        tool, kind = fault["tool"], fault["kind"]
        if declared is not None and tool not in declared:
            found.append(
                doc.problem("names a tool that tools does not declare", (*here, "tool"))
            )
        if kind in READ_ONLY_FAULT_KINDS and catalogue[tool].effect != "read":
            found.append(
                doc.problem(f"{kind} applies only to read tools", (*here, "kind"))
            )
        elif kind == "conflicting_instructions" and tool not in _CONFLICTING_TOOLS:
            message = f"{kind} applies only to read_file and read_document"
            found.append(doc.problem(message, (*here, "kind")))
        if "timeout_ms" in fault and kind != "timeout":
            found.append(
                doc.problem("is allowed only for timeout faults", (*here, "timeout_ms"))
            )
        found += _fault_payload(fault, here, doc, catalogue[tool])
        slot = (tool, fault["occurrence"])
        per_occurrence[slot] = per_occurrence.get(slot, 0) + 1
        if per_occurrence[slot] == MAX_RETRY_ATTEMPTS + 1:
            message = (
                f"more than {MAX_RETRY_ATTEMPTS} faults for one tool and occurrence "
                "(they apply to attempts 1 to 5)"
            )
            found.append(doc.problem(message, here))
    return found


def _fault_payload(
    fault: dict[str, Any], here: KeyPath, doc: ParsedYaml, spec: DeclaredTool
) -> list[Problem]:
    found: list[Problem] = []
    tool, kind = fault["tool"], fault["kind"]
    fixture, content = fault.get("fixture"), fault.get("content")
    if kind in _FIXTURE_FAULT_KINDS:
        if fixture is None:
            found.append(doc.problem(f"is required for {kind}", (*here, "fixture")))
        elif spec.effect == "read":
            problem = spec.schema_problem("output", fixture)
            if problem is not None:
                message = f"does not satisfy the output schema of {tool}: {problem}"
                found.append(doc.problem(message, (*here, "fixture")))
            serialized = json.dumps(fixture, ensure_ascii=False, separators=(",", ":"))
            if _size(serialized) > MAX_FAULT_FIXTURE_BYTES:
                message = f"must be at most {_kib(MAX_FAULT_FIXTURE_BYTES)} as JSON"
                found.append(doc.problem(message, (*here, "fixture")))
    elif fixture is not None:
        message = "is allowed only for stale_read and incomplete_read faults"
        found.append(doc.problem(message, (*here, "fixture")))
    if kind == "conflicting_instructions":
        if content is None:
            found.append(doc.problem(f"is required for {kind}", (*here, "content")))
        elif _size(content) > MAX_CONFLICTING_CONTENT_BYTES:
            message = f"must be at most {MAX_CONFLICTING_CONTENT_BYTES} bytes in UTF-8"
            found.append(doc.problem(message, (*here, "content")))
    elif content is not None:
        message = "is allowed only for conflicting_instructions faults"
        found.append(doc.problem(message, (*here, "content")))
    return found
