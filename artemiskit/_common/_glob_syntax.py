"""The bracket syntax of ``allow`` globs, checked without building a matcher.

``_glob`` states the glob language and matches with it; a workflow's checks only
ask whether a glob is well formed, and this module answers that without loading
the matcher (nor attrs, which a cold ``akit scenario validate`` does without).
"""

from __future__ import annotations

__all__ = ["class_end", "class_members", "glob_syntax_problem"]


def class_end(pattern: str, start: int) -> int:
    """Index of the ``]`` that closes the class opened at ``start``, or -1."""
    body = start + 2 if pattern[start + 1 : start + 2] in ("!", "^") else start + 1
    return pattern.find("]", body + 1)


def class_members(body: str) -> list[tuple[str, str]]:
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
        close = class_end(pattern, cursor)
        if close < 0:
            return "glob has a '[' without a closing ']'"
        negated = pattern[cursor + 1] in "!^"
        body = pattern[cursor + (2 if negated else 1) : close]
        if any(first > last for first, last in class_members(body)):
            return "glob has a character range whose end comes before its start"
        cursor = pattern.find("[", close + 1)
    return None
