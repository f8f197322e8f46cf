"""The glob language of ``allow`` patterns: one parser for checks and matching.

The rules (``docs/tools.md`` states them for users):

- a glob matches a value as a whole string, case-sensitively, by code point;
- ``*`` matches any run of characters except ``/``;
- ``?`` matches exactly one character except ``/``;
- ``[...]`` matches exactly one character except ``/`` that the class names;
  ``[!...]`` (or ``[^...]``) one character except ``/`` that it does not name.
  ``a-z`` names a range of code points, a ``-`` first or last names itself, and a
  ``]`` right after the opening ``[``, ``[!`` or ``[^`` names itself. A range whose
  end comes before its start is invalid. No class ever matches ``/``;
- ``**`` matches any run of characters, ``/`` included; when it is a whole segment
  (at the start or after a ``/``, and followed by ``/``), ``**/`` also matches no
  folder at all, so ``**/*.md`` matches ``a.md``;
- there is no escape character; everything else (a backslash too) matches itself;
- a ``[`` without a closing ``]`` is invalid (and would match itself).
"""

from __future__ import annotations

import functools
import re

__all__ = ["glob_matches", "glob_syntax_problem"]


def _class_end(pattern: str, start: int) -> int:
    """Index of the ``]`` that closes the class opened at ``start``, or -1."""
    body = start + 2 if pattern[start + 1 : start + 2] in ("!", "^") else start + 1
    return pattern.find("]", body + 1)


def _class_members(body: str) -> list[tuple[str, str]]:
    """The ``(first, last)`` ranges a class body names, in order."""
    members: list[tuple[str, str]] = []
    cursor = 0
    while cursor < len(body):
        if cursor + 2 < len(body) and body[cursor + 1] == "-":
            members.append((body[cursor], body[cursor + 2]))
            cursor += 3
        else:
            members.append((body[cursor], body[cursor]))
            cursor += 1
    return members


def glob_syntax_problem(pattern: str) -> str | None:
    """Say why ``pattern``'s brackets are malformed, or return ``None``."""
    cursor = pattern.find("[")
    while cursor >= 0:
        close = _class_end(pattern, cursor)
        if close < 0:
            return "glob has a '[' without a closing ']'"
        negated = pattern[cursor + 1] in "!^"
        body = pattern[cursor + (2 if negated else 1) : close]
        if any(first > last for first, last in _class_members(body)):
            return "glob has a character range whose end comes before its start"
        cursor = pattern.find("[", close + 1)
    return None


def _class_regex(body: str, *, negated: bool) -> str:
    members = "".join(
        re.escape(first) if first == last else f"{re.escape(first)}-{re.escape(last)}"
        for first, last in _class_members(body)
        # An invalid (reversed) range names nothing; validation refuses it anyway.
        if first <= last
    )
    if negated:
        return f"[^/{members}]"
    return f"(?!/)[{members}]" if members else "(?!)"


@functools.cache
def _compile(pattern: str) -> re.Pattern[str]:
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**", index):
            whole_segment = index == 0 or pattern[index - 1] == "/"
            if whole_segment and pattern.startswith("**/", index):
                out.append("(?:.*/)?")  # any number of folders, zero included
                index += 3
            else:
                out.append(".*")
                index += 2
            continue
        if char == "[":
            close = _class_end(pattern, index)
            if close >= 0:
                negated = pattern[index + 1] in "!^"
                body = pattern[index + (2 if negated else 1) : close]
                out.append(_class_regex(body, negated=negated))
                index = close + 1
                continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        else:
            out.append(re.escape(char))
        index += 1
    return re.compile("".join(out), re.DOTALL)


def glob_matches(pattern: str, value: str) -> bool:
    """Match ``value`` against a glob, as a whole string and case-sensitively.

    ``*``, ``?`` and bracket classes never match ``/``; only ``**`` crosses
    segments (the module docstring has the full rules).

    Args:
        pattern: The glob.
        value: The resource (a normalized path, an id, an address, ...).

    Returns:
        Whether the glob admits the value.
    """
    return _compile(pattern).fullmatch(value) is not None
