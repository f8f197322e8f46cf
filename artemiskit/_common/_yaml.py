"""Safe YAML loading with a position for every node.

`parse_yaml_plain` builds plain Python data (dict, list, str, int, float, bool, None)
from ruamel.yaml's event stream, so that nothing is ever constructed from a tag, and
it refuses what a contract file has no use for: explicit tags, anchors and aliases,
merge keys, duplicate keys, non-string keys, several documents and deep nesting.
Scalars are resolved with the YAML 1.2 core schema (``yes`` stays a string). The
public `artemiskit.workflow.parse_yaml` returns the same as an attrs `YamlDocument`.

Every problem names its line and column. Messages never repeat the offending value,
which may be secret or sensitive text.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ruamel.yaml import YAML, events as ev
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.resolver import VersionedResolver

from artemiskit._errors import WorkflowError

if TYPE_CHECKING:
    from collections.abc import Iterator

    from artemiskit._errors import Problem

__all__ = [
    "MAX_INTEGER_DIGITS",
    "MAX_YAML_DEPTH",
    "SURROGATE_RULE",
    "KeyPath",
    "ParsedYaml",
    "format_path",
    "parse_yaml_plain",
    "surrogate_problems",
]

#: How deeply mappings and sequences may nest.
MAX_YAML_DEPTH = 64
#: The most decimal digits an integer may have, in whatever base it is written
#: (Python's own limit for converting integers to and from text).
MAX_INTEGER_DIGITS = 4300
_INTEGER_BOUND = 10**MAX_INTEGER_DIGITS

KeyPath = tuple[str | int, ...]

_RESOLVER = VersionedResolver(version=(1, 2))
_TAG_PREFIX = "tag:yaml.org,2002:"


def _escape(char: str) -> str:
    if char in '"\\':
        return "\\" + char
    if char.isprintable() and not 0xD800 <= ord(char) <= 0xDFFF:
        return char
    return f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}"


def format_path(path: KeyPath) -> str:
    """Render a key path as ``$.a.b[2]`` (keys that are not identifiers are quoted).

    Args:
        path: Mapping keys and sequence indexes from the document root.

    Returns:
        The JSONPath-like rendering used in every problem.
    """
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part and all(c.isalnum() or c in "_-" for c in part):
            out += f".{part}"
        else:
            escaped = "".join(_escape(c) for c in part)
            out += f'["{escaped}"]'
    return out


class ParsedYaml:
    """A parsed YAML document: plain data plus the position of every node.

    The package's own readers use this plain class, so checking a valid file cold
    imports no attrs; the public, attrs, form is `artemiskit.workflow.YamlDocument`.
    Its repr names the source only, never the data.

    Attributes:
        data: The document as plain Python data.
        source: The file name (or ``<string>``) used in problems.
    """

    __slots__ = ("data", "key_positions", "positions", "source")

    def __init__(
        self,
        *,
        data: Any,
        source: str,
        positions: dict[KeyPath, tuple[int, int]],
        key_positions: dict[KeyPath, tuple[int, int]],
    ) -> None:
        self.data = data
        self.source = source
        self.positions = positions
        self.key_positions = key_positions

    def __repr__(self) -> str:
        return f"ParsedYaml(source={self.source!r})"

    def position(self, path: KeyPath) -> tuple[int, int] | None:
        """Return the 1-based (line, column) of the node at ``path``.

        When no node sits at ``path`` (a missing key), the nearest ancestor's
        position is returned; ``None`` only for an empty document.
        """
        for cut in range(len(path), -1, -1):
            found = self.positions.get(path[:cut])
            if found is not None:
                return found
        return None

    def key_position(self, path: KeyPath) -> tuple[int, int] | None:
        """Return the position of the mapping key that ends ``path``, if any.

        Falls back to `position` for sequence items and missing keys.
        """
        found = self.key_positions.get(path)
        return found if found is not None else self.position(path)

    def problem(self, message: str, path: KeyPath, *, at_key: bool = False) -> Problem:
        """Build a `Problem` at ``path`` with this document's source and position."""
        from artemiskit._errors import Problem  # attrs, only once a problem exists

        where = self.key_position(path) if at_key else self.position(path)
        line, column = where if where is not None else (None, None)
        return Problem(
            message=message,
            path=format_path(path),
            source=self.source,
            line=line,
            column=column,
        )


class _Refused(Exception):
    """A construct the loader refuses, with where it happened."""

    def __init__(self, message: str, mark: Any, path: KeyPath) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark
        self.path = path


def _mark_pos(mark: Any) -> tuple[int, int]:
    return (int(mark.line) + 1, int(mark.column) + 1)


def _scalar(event: ev.ScalarEvent, path: KeyPath) -> Any:
    """Resolve one scalar with the YAML 1.2 core schema."""
    value: str = event.value
    if event.style is not None:  # quoted, literal or folded: always a string
        return value
    tag = str(_RESOLVER.resolve(ScalarNode, value, (True, False)))
    kind = tag.removeprefix(_TAG_PREFIX)
    if kind == "null":
        return None
    if kind == "bool":
        return value.lower() == "true"
    if kind == "int":
        return _to_int(value, event, path)
    if kind == "float":
        return _to_float(value)
    if kind == "merge":
        raise _Refused("merge keys ('<<') are not supported", event.start_mark, path)
    return value


def _to_int(value: str, event: ev.ScalarEvent, path: KeyPath) -> int:
    text = value.replace("_", "")
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-")
    base = 10
    for prefix, radix in (("0b", 2), ("0o", 8), ("0x", 16)):
        if text.lower().startswith(prefix):
            text, base = text[2:], radix
    too_large = _Refused(
        f"integer is too large (at most {MAX_INTEGER_DIGITS} decimal digits)",
        event.start_mark,
        path,
    )
    if len(text) > MAX_INTEGER_DIGITS:  # no base writes a shorter number
        raise too_large
    try:
        number = int(text, base)
    except ValueError:
        raise too_large from None
    if number >= _INTEGER_BOUND:
        raise too_large
    return sign * number


def _to_float(value: str) -> float:
    text = value.replace("_", "").lower()
    if text.endswith(".inf"):
        return -math.inf if text.startswith("-") else math.inf
    if text.endswith(".nan"):
        return math.nan
    return float(text)


class _Frame:
    """A mapping or sequence under construction."""

    __slots__ = ("container", "expect_key", "path", "pending_key")

    def __init__(self, *, container: dict[str, Any] | list[Any], path: KeyPath) -> None:
        self.container = container
        self.path = path
        self.pending_key: str | None = None
        self.expect_key = True


def _build(events: Iterator[ev.Event], doc: dict[str, Any]) -> Any:
    """Fold the event stream into plain data, recording positions in ``doc``."""
    positions: dict[KeyPath, tuple[int, int]] = doc["positions"]
    key_positions: dict[KeyPath, tuple[int, int]] = doc["key_positions"]
    stack: list[_Frame] = []
    root: Any = None
    documents = 0

    def child_path() -> KeyPath:
        if not stack:
            return ()
        top = stack[-1]
        if isinstance(top.container, list):
            return (*top.path, len(top.container))
        assert top.pending_key is not None
        return (*top.path, top.pending_key)

    def attach(value: Any) -> None:
        nonlocal root
        if not stack:
            root = value
            return
        top = stack[-1]
        if isinstance(top.container, list):
            top.container.append(value)
        else:
            assert top.pending_key is not None
            top.container[top.pending_key] = value
            top.pending_key = None
            top.expect_key = True

    for event in events:
        if isinstance(event, ev.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise _Refused(
                    "the file must hold exactly one YAML document", event.start_mark, ()
                )
            continue
        at_key = bool(stack) and isinstance(stack[-1].container, dict)
        at_key = at_key and stack[-1].expect_key
        here = stack[-1].path if at_key else child_path()
        if isinstance(event, ev.AliasEvent):
            raise _Refused(
                "aliases ('*name') are not supported", event.start_mark, here
            )
        if not isinstance(event, ev.NodeEvent | ev.CollectionEndEvent):
            continue
        if isinstance(event, ev.CollectionEndEvent):
            frame = stack.pop()
            attach(frame.container)
            continue
        if event.anchor is not None:
            raise _Refused(
                "anchors ('&name') are not supported", event.start_mark, here
            )
        if getattr(event, "tag", None) is not None:
            raise _Refused(
                "explicit tags ('!tag') are not supported", event.start_mark, here
            )
        if at_key:
            top = stack[-1]
            if not isinstance(event, ev.ScalarEvent):
                raise _Refused("mapping keys must be strings", event.start_mark, here)
            key = _scalar(event, here)
            if not isinstance(key, str):
                raise _Refused("mapping keys must be strings", event.start_mark, here)
            assert isinstance(top.container, dict)
            if key in top.container:
                raise _Refused("duplicate key", event.start_mark, (*top.path, key))
            top.pending_key = key
            top.expect_key = False
            key_positions[(*top.path, key)] = _mark_pos(event.start_mark)
            continue
        path = child_path()
        positions[path] = _mark_pos(event.start_mark)
        if isinstance(event, ev.ScalarEvent):
            attach(_scalar(event, path))
            continue
        if len(stack) >= MAX_YAML_DEPTH:
            raise _Refused(
                f"nested more than {MAX_YAML_DEPTH} levels deep", event.start_mark, path
            )
        container: dict[str, Any] | list[Any] = (
            {} if isinstance(event, ev.MappingStartEvent) else []
        )
        stack.append(_Frame(container=container, path=path))
    return root


def parse_yaml_plain(text: str, *, source: str = "<string>") -> ParsedYaml:
    """Parse one YAML document safely into plain data with node positions.

    Args:
        text: The YAML text.
        source: The file name used in problems.

    Returns:
        The document; an empty file gives ``data=None``.

    Raises:
        WorkflowError: A syntax error or a refused construct (tag, anchor, alias,
            merge key, duplicate or non-string key, several documents, deep
            nesting); its problem carries the line and column.
    """
    doc: dict[str, Any] = {"positions": {}, "key_positions": {}}
    yaml = YAML(typ="safe", pure=True)
    try:
        data = _build(iter(yaml.parse(text)), doc)
    except _Refused as exc:
        from artemiskit._errors import Problem  # attrs, only once a problem exists

        line, column = _mark_pos(exc.mark) if exc.mark is not None else (None, None)
        problem = Problem(
            message=exc.message,
            path=format_path(exc.path),
            source=source,
            line=line,
            column=column,
        )
        raise WorkflowError(f"{source}: not a valid YAML file", [problem]) from None
    except (YAMLError, RecursionError, ValueError) as exc:
        raise WorkflowError(
            f"{source}: not a valid YAML file", [_syntax_problem(exc, source)]
        ) from None
    return ParsedYaml(
        data=data,
        source=source,
        positions=doc["positions"],
        key_positions=doc["key_positions"],
    )


def _syntax_problem(exc: BaseException, source: str) -> Problem:
    """Describe a YAML syntax error by its rule and place, never by its text."""
    from artemiskit._errors import Problem  # attrs, only once a problem exists

    if isinstance(exc, RecursionError):
        return Problem(message="YAML nesting is too deep", source=source)
    if isinstance(exc, MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        rule = exc.problem or exc.context or "YAML syntax error"
        line, column = _mark_pos(mark) if mark is not None else (None, None)
        return Problem(
            message=f"YAML syntax error: {rule}",
            source=source,
            line=line,
            column=column,
        )
    if isinstance(exc, ReaderError):
        return Problem(
            message="YAML syntax error: the text holds a character YAML does not allow"
            " (control characters and NUL are refused)",
            source=source,
        )
    return Problem(message="YAML syntax error", source=source)


#: The rule a string or key with a lone surrogate escape (``"\\ud800"``) breaks.
SURROGATE_RULE = "must be valid Unicode text (no lone surrogate escapes)"


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def surrogate_problems(doc: ParsedYaml, data: Any, path: KeyPath = ()) -> list[Problem]:
    """A located problem for every string or key of ``data`` that is not valid text.

    YAML escapes can write lone surrogates, which no UTF-8 encoder accepts; every
    file read with `parse_yaml_plain` refuses them before anything encodes its text.

    Args:
        doc: The parsed document, for positions.
        data: The part of ``doc.data`` to walk.
        path: Where ``data`` sits in ``doc``.
    """
    if isinstance(data, str):
        return [] if _encodable(data) else [doc.problem(SURROGATE_RULE, path)]
    found: list[Problem] = []
    if isinstance(data, dict):
        for key, item in data.items():
            if not _encodable(key):
                found.append(doc.problem(SURROGATE_RULE, (*path, key), at_key=True))
            found += surrogate_problems(doc, item, (*path, key))
    elif isinstance(data, list):
        for index, item in enumerate(data):
            found += surrogate_problems(doc, item, (*path, index))
    return found
