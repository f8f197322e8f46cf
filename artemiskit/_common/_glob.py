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

import attrs

from artemiskit._common._glob_syntax import (
    class_end,
    class_members,
    glob_syntax_problem,
)

__all__ = ["glob_matches", "glob_syntax_problem"]


@attrs.frozen(kw_only=True)
class _Class:
    """A one-character token: ``?`` (no members, negated) or a bracket class."""

    bit: int
    ranges: tuple[tuple[str, str], ...]
    negated: bool

    def admits(self, char: str) -> bool:
        inside = any(first <= char <= last for first, last in self.ranges)
        return char != "/" and inside != self.negated


@attrs.frozen(kw_only=True)
class _Program:
    """A glob as a position automaton over bit sets (token ``i`` is bit ``i``).

    Matching runs every position at once, one character at a time, so it takes
    time linear in the value however many ``*`` the glob holds: a hostile value
    cannot make it backtrack.
    """

    accept: int
    literals: dict[str, int]
    classes: tuple[_Class, ...]
    star: int  # ``*``: repeats on any character but ``/``; may be skipped
    globstar: int  # ``**``: repeats on any character; may be skipped
    # ``**/`` as a whole segment is three positions: this entry (consumes nothing;
    # leads into the ``**``, or past the ``**`` and its ``/``), ``**``, ``/``.
    folders: int

    def closure(self, states: int) -> int:
        skippable = self.star | self.globstar | self.folders
        while True:
            grown = (
                states | ((states & skippable) << 1) | ((states & self.folders) << 3)
            )
            if grown == states:
                return states
            states = grown

    def matches(self, value: str) -> bool:
        states = self.closure(1)
        class_masks: dict[str, int] = {}
        for char in value:
            advancing = self.literals.get(char, 0)
            if self.classes:
                mask = class_masks.get(char)
                if mask is None:
                    mask = sum(c.bit for c in self.classes if c.admits(char))
                    class_masks[char] = mask
                advancing |= mask
            staying = self.globstar if char == "/" else self.globstar | self.star
            states = self.closure(((states & advancing) << 1) | (states & staying))
            if not states:
                return False
        return bool(states & self.accept)


@functools.cache
def _compile(pattern: str) -> _Program:
    # `**/**/` is `**/`: keeps chains of skippable positions short.
    while "**/**/" in pattern:
        pattern = pattern.replace("**/**/", "**/")
    literals: dict[str, int] = {}
    classes: list[_Class] = []
    star = globstar = folders = 0
    position = 0
    index = 0

    def literal(char: str) -> None:
        nonlocal position
        literals[char] = literals.get(char, 0) | 1 << position
        position += 1

    while index < len(pattern):
        char = pattern[index]
        bit = 1 << position
        if pattern.startswith("**", index):
            whole_segment = index == 0 or pattern[index - 1] == "/"
            if whole_segment and pattern.startswith("**/", index):
                folders |= bit  # any number of folders, zero included
                globstar |= bit << 1
                position += 2
                literal("/")
                index += 3
            else:
                globstar |= bit
                position += 1
                index += 2
            continue
        if char == "[":
            close = class_end(pattern, index)
            if close >= 0:
                negated = pattern[index + 1] in "!^"
                body = pattern[index + (2 if negated else 1) : close]
                ranges = tuple(class_members(body))
                classes.append(_Class(bit=bit, ranges=ranges, negated=negated))
                position += 1
                index = close + 1
                continue
        if char == "*":
            star |= bit
            position += 1
        elif char == "?":
            classes.append(_Class(bit=bit, ranges=(), negated=True))
            position += 1
        else:
            literal(char)
        index += 1
    return _Program(
        accept=1 << position,
        literals=literals,
        classes=tuple(classes),
        star=star,
        globstar=globstar,
        folders=folders,
    )


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
    return _compile(pattern).matches(value)
