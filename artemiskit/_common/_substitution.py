r"""Case substitution: ``{{ name }}`` placeholders filled from one dataset case.

SPEC section 19 allows exactly one form: ``{{ name }}``, where ``name`` is a
dotted path into the case (``order.id`` reaches into an object). There are no
expressions, filters or code, so a small linear scanner reads templates rather
than a template engine. ``\{{`` writes a literal ``{{``; ``${X}`` is not ours
and stays literal.

A string that is exactly one placeholder takes the case value with its JSON
type; inside a longer string a non-string value is written as compact JSON.
Errors name the placeholder (a name from the workflow), never a case value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

import attrs

if TYPE_CHECKING:
    from artemiskit._common._yaml import KeyPath

__all__ = [
    "Placeholder",
    "FIXED_SECTIONS",
    "MissingName",
    "TemplateError",
    "fixed_placeholder_paths",
    "has_placeholder",
    "names_in",
    "parse_template",
    "render",
    "substitute",
]

_OPEN: Final = "{{"
_CLOSE: Final = "}}"
_NAME_CHARS: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
)
_MAX_NAME: Final = 256

#: Top-level workflow sections that stay fixed for every case (``allow``
#: blocks live under ``tools``).
FIXED_SECTIONS: Final = ("target", "tools", "policy", "budgets")


class TemplateError(ValueError):
    """A placeholder that is malformed or names nothing in the case."""


class MissingName(TemplateError):
    """A placeholder whose name the case has no value for.

    Attributes:
        name: The dotted name (from the workflow, never a case value).
    """

    def __init__(self, name: str) -> None:
        super().__init__(f"the case has no value for '{name}'")
        self.name = name


@attrs.frozen(kw_only=True)
class Placeholder:
    """One ``{{ name }}`` in a template.

    Attributes:
        name: The dotted name, without braces or surrounding spaces.
    """

    name: str

    @property
    def path(self) -> tuple[str, ...]:
        """The name split at its dots."""
        return tuple(self.name.split("."))


def _valid_name(name: str) -> bool:
    if not name or len(name) > _MAX_NAME:
        return False
    return all(part and set(part) <= _NAME_CHARS for part in name.split("."))


def parse_template(text: str) -> tuple[str | Placeholder, ...]:
    r"""Split a string into literal text and placeholders, in one pass.

    Args:
        text: The string as written in the workflow or script.

    Returns:
        Literal strings (with ``\{{`` already turned into ``{{``) and
        `Placeholder` items, in order; adjacent literals are joined.

    Raises:
        TemplateError: A ``{{`` without a closing ``}}`` on its name, or a name
            that is not dotted letters, digits, ``_`` and ``-``.
    """
    parts: list[str | Placeholder] = []
    literal: list[str] = []
    index = 0
    length = len(text)
    while index < length:
        if text.startswith("\\" + _OPEN, index):
            literal.append(_OPEN)
            index += 3
            continue
        if text.startswith(_OPEN, index):
            end = text.find(_CLOSE, index + 2, index + 2 + _MAX_NAME + 64)
            if end < 0:
                raise TemplateError(
                    "'{{' without a closing '}}' (write '\\{{' for a literal '{{')"
                )
            name = text[index + 2 : end].strip(" ")
            if not _valid_name(name):
                raise TemplateError(
                    "a placeholder holds only a dotted name such as '{{ order.id }}'"
                    " (no expressions or filters)"
                )
            if literal:
                parts.append("".join(literal))
                literal = []
            parts.append(Placeholder(name=name))
            index = end + 2
            continue
        next_special = _next_special(text, index)
        literal.append(text[index:next_special])
        index = next_special
    if literal:
        parts.append("".join(literal))
    return tuple(parts)


def _next_special(text: str, start: int) -> int:
    r"""Where the next ``{{`` or ``\{{`` begins, at least one step on (one scan)."""
    brace = text.find(_OPEN, start + 1)
    if brace < 0:
        return len(text)
    if text[brace - 1] == "\\" and brace - 1 > start:
        return brace - 1
    return brace


def has_placeholder(text: str) -> bool:
    r"""Whether a string holds a ``{{`` that is not escaped as ``\{{``.

    Used to refuse placeholders where SPEC section 19 keeps values fixed
    (target, tools, ``allow``, policy, budgets): there even a malformed
    ``{{`` is refused rather than kept as a literal glob or model name.

    Args:
        text: Any string from the workflow.

    Returns:
        True when an unescaped ``{{`` occurs.
    """
    index = text.find(_OPEN)
    while index >= 0:
        if index == 0 or text[index - 1] != "\\":
            return True
        index = text.find(_OPEN, index + 2)
    return False


def names_in(value: object) -> frozenset[str]:
    """Every placeholder name in the strings and mapping keys of a value.

    Args:
        value: A JSON-shaped value (mappings, lists, scalars).

    Returns:
        The dotted names used.

    Raises:
        TemplateError: A malformed placeholder.
    """
    found: set[str] = set()
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.update(
                p.name for p in parse_template(item) if isinstance(p, Placeholder)
            )
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return frozenset(found)


def _lookup(case: Mapping[str, object], placeholder: Placeholder) -> object:
    current: object = case
    for part in placeholder.path:
        if not isinstance(current, Mapping) or part not in current:
            raise MissingName(placeholder.name)
        current = current[part]
    return current


def _as_text(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def render(
    parts: tuple[str | Placeholder, ...],
    case: Mapping[str, object],
    *,
    text: bool = False,
) -> object:
    """Fill a template already split by `parse_template` from one case.

    Args:
        parts: The template's literal text and placeholders.
        case: The case's values.
        text: Always return text (for mapping keys): a whole-value placeholder's
            non-string value is written as compact JSON.

    Returns:
        The case value with its JSON type when the template is exactly one
        placeholder, else the text with each value written in (non-strings as
        compact JSON).

    Raises:
        MissingName: A name the case lacks (the first, in template order).
    """
    if len(parts) == 1 and isinstance(parts[0], Placeholder) and not text:
        return _lookup(case, parts[0])
    return "".join(
        _as_text(_lookup(case, part)) if isinstance(part, Placeholder) else part
        for part in parts
    )


def substitute(
    value: object, case: Mapping[str, object], *, keys: bool = False
) -> object:
    """A copy of a JSON-shaped value with every placeholder filled from a case.

    Args:
        value: A string, list or mapping from a section that allows placeholders.
        case: The case's values.
        keys: Also substitute mapping keys (file names of ``environment.files``
            and ``outcomes`` keys); a key always becomes text.

    Returns:
        The substituted value; a string that is exactly one placeholder becomes
        the case value with its JSON type.

    Raises:
        TemplateError: A malformed placeholder or a name the case lacks.
    """
    if isinstance(value, str):
        return render(parse_template(value), case)
    if isinstance(value, Mapping):
        result: dict[object, object] = {}
        for key, item in value.items():
            new_key = (
                _as_text(substitute(key, case))
                if keys and isinstance(key, str)
                else key
            )
            result[new_key] = substitute(item, case, keys=keys)
        return result
    if isinstance(value, list | tuple):
        return [substitute(item, case, keys=keys) for item in value]
    return value


def fixed_placeholder_paths(document: Mapping[str, object]) -> tuple[KeyPath, ...]:
    """Key paths in the fixed sections whose key or string value holds a ``{{``.

    Target, tools (with their ``allow`` blocks), policy and budgets run the
    same for every case, so a ``{{`` there is refused, never kept as a literal
    glob or model name.

    Args:
        document: The workflow as parsed (plain mappings and lists).

    Returns:
        Each offending key path, in document order.
    """
    found: list[KeyPath] = []
    stack: list[tuple[KeyPath, object]] = [
        ((key,), document[key]) for key in reversed(FIXED_SECTIONS) if key in document
    ]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            if has_placeholder(item):
                found.append(path)
        elif isinstance(item, Mapping):
            children: list[tuple[KeyPath, object]] = []
            for key, value in item.items():
                child = (*path, str(key))
                if isinstance(key, str) and has_placeholder(key):
                    found.append(child)
                children.append((child, value))
            stack.extend(reversed(children))
        elif isinstance(item, list | tuple):
            stack.extend(reversed([((*path, i), v) for i, v in enumerate(item)]))
    return tuple(found)
