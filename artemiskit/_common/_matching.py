"""Linear-time regular expressions: the one engine for patterns run on untrusted text.

Every pattern the product runs against model text, tool arguments or user data goes
through this module. It uses RE2 (the ``google-re2`` binding), whose matching time is
linear in the length of the text whatever the pattern, so a pathological pattern can
never stall a run, a case or a signal. Python's ``re`` backtracks and is reserved for
fixed patterns written in the code itself.

RE2 takes the Python syntax except backreferences and look-around; a pattern that uses
them is refused when compiled (`PatternSyntaxError`), so validation can report it
before anything runs.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import re2

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = ["LinearPattern", "PatternSyntaxError", "compile_linear"]

_MAX_PATTERN_CHARS = 4096
_MAX_PROGRAM_BYTES = 8 * 1024 * 1024
_CACHE_SIZE = 512


class PatternSyntaxError(ValueError):
    """A pattern the linear-time engine cannot take (or too long); says why."""


class LinearPattern:
    """A compiled linear-time pattern (thread-safe, reusable)."""

    __slots__ = ("_compiled", "pattern")

    def __init__(self, pattern: str, compiled: Any) -> None:
        self.pattern = pattern
        self._compiled = compiled

    def __repr__(self) -> str:
        return f"LinearPattern(<{len(self.pattern)} chars>)"

    def search(self, text: str) -> bool:
        """Return whether the pattern matches anywhere in ``text``."""
        return self._compiled.search(text) is not None

    def fullmatch(self, text: str) -> bool:
        """Return whether the pattern matches the whole of ``text``."""
        return self._compiled.fullmatch(text) is not None

    def find(self, text: str, *, whole: bool = False) -> tuple[str | None, ...] | None:
        """The first match's text and groups (``(match, group1, ...)``), or ``None``.

        Args:
            text: The text searched.
            whole: The match must cover the whole of ``text``.
        """
        found = self._compiled.fullmatch(text) if whole else self._compiled.search(text)
        if found is None:
            return None
        return (found.group(0), *found.groups())

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """Yield the (start, end) of every non-overlapping match, left to right."""
        for match in self._compiled.finditer(text):
            yield match.span()

    def sub(self, replacement: str | Callable[[str], str], text: str) -> str:
        """Replace every match; ``replacement`` is literal text or a function of it."""
        pieces: list[str] = []
        cursor = 0
        for start, end in self.spans(text):
            pieces.append(text[cursor:start])
            found = text[start:end]
            pieces.append(replacement(found) if callable(replacement) else replacement)
            cursor = end
        pieces.append(text[cursor:])
        return "".join(pieces)


def compile_linear(
    pattern: str,
    *,
    ignore_case: bool = False,
    multiline: bool = False,
    dot_all: bool = False,
) -> LinearPattern:
    """Compile ``pattern`` for linear-time matching.

    Args:
        pattern: the regular expression (Python syntax without backreferences or
            look-around).
        ignore_case: match letters in either case.
        multiline: ``^`` and ``$`` match at line boundaries.
        dot_all: ``.`` matches a newline too.

    Returns:
        The compiled pattern (cached, so compiling the same pattern again is cheap).

    Raises:
        PatternSyntaxError: the pattern is invalid, too long, or needs backtracking.
    """
    return _compile(pattern, ignore_case, multiline, dot_all)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _compile(
    pattern: str, ignore_case: bool, multiline: bool, dot_all: bool
) -> LinearPattern:
    if len(pattern) > _MAX_PATTERN_CHARS:
        raise PatternSyntaxError(
            f"pattern is longer than {_MAX_PATTERN_CHARS} characters"
        )
    flags = "".join(
        letter
        for letter, wanted in (("i", ignore_case), ("m", multiline), ("s", dot_all))
        if wanted
    )
    options = re2.Options()
    options.log_errors = False
    options.max_mem = _MAX_PROGRAM_BYTES
    source = f"(?{flags}){pattern}" if flags else pattern
    try:
        compiled = re2.compile(source, options)
    except re2.error as exc:
        raise PatternSyntaxError(_describe(exc)) from None
    except (TypeError, ValueError) as exc:
        raise PatternSyntaxError(f"invalid pattern ({type(exc).__name__})") from None
    return LinearPattern(pattern, compiled)


def _describe(exc: Exception) -> str:
    detail = exc.args[0] if exc.args else ""
    if isinstance(detail, bytes):
        detail = detail.decode("utf-8", "replace")
    text = str(detail).split(":", 1)[0].strip() or "invalid pattern"
    return (
        f"{text} (patterns run in linear time: backreferences and look-around "
        "are not supported)"
    )
