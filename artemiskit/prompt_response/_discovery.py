"""Which scenario files a path, folder or glob names (TypeScript ``discovery.ts``).

A file is taken as given; a folder is searched recursively (depth 10) for
``.yaml``/``.yml`` files, skipping ``node_modules``, ``.git``, ``dist``, ``build``
and ``coverage``; an argument with ``*`` or ``?`` is a glob whose base is the part
before the first wildcard segment (``**`` any text, ``*`` within a segment, ``?``
one character; no braces), matched against paths relative to that base, in
linear time (RE2: a glob of many ``**`` never backtracks over a long path). An
entry that cannot be examined (a symbolic link loop, an entry removed meanwhile)
names no file and is skipped.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from artemiskit._common._matching import (
    LinearPattern,
    PatternSyntaxError,
    compile_linear,
)
from artemiskit._errors import FileAccessError

__all__ = ["SKIPPED_NAMES", "discover_scenario_files"]

SKIPPED_NAMES = frozenset({"node_modules", ".git", "dist", "build", "coverage"})
_MAX_DEPTH = 10
_MAX_GLOB_DEPTH = 20


def _walk(folder: Path, depth: int, limit: int, found: list[str]) -> None:
    if depth > limit:
        return
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return
    for entry in entries:
        if entry.name in SKIPPED_NAMES:
            continue
        try:
            folder_entry = entry.is_dir(follow_symlinks=False)
            file_entry = not folder_entry and entry.is_file()
        except OSError:  # a link loop, or gone meanwhile: names no file
            continue
        if folder_entry:
            _walk(Path(entry.path), depth + 1, limit, found)
        elif file_entry and entry.name.endswith((".yaml", ".yml")):
            found.append(os.path.abspath(entry.path))


def _glob_pattern(pattern: str) -> LinearPattern:
    out = ""
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**", index):
            out += ".*"
            index += 2
            continue
        if char == "*":
            out += "[^/]*"
        elif char == "?":
            out += "."
        else:
            out += re.escape(char)
        index += 1
    # re.escape writes escapes RE2 reads alike; `**` and `?` span newlines too
    return compile_linear(out, dot_all=True)


def _glob(argument: str) -> list[str]:
    segments = argument.split("/")
    cut = next(i for i, part in enumerate(segments) if "*" in part or "?" in part)
    base = Path("/".join(segments[:cut]) or ".")
    if argument.startswith("/") and cut == 1:
        base = Path("/")
    try:
        matcher = _glob_pattern("/".join(segments[cut:]))
    except PatternSyntaxError as exc:
        raise FileAccessError(
            f"{argument}: not a usable glob ({exc})", reason="not_found"
        ) from None
    found: list[str] = []
    if base.is_dir():
        _walk(base, 0, _MAX_GLOB_DEPTH, found)
    base_abs = os.path.abspath(base)
    return sorted(
        path for path in found if matcher.fullmatch(os.path.relpath(path, base_abs))
    )


def discover_scenario_files(argument: str) -> list[str]:
    """The scenario files ``argument`` names, as sorted absolute paths.

    Args:
        argument: A file, a folder or a glob.

    Returns:
        The files (a named file is returned whatever its extension).

    Raises:
        FileAccessError: ``argument`` names nothing (exit 1).
    """
    if "*" in argument or "?" in argument:
        return _glob(argument)
    path = Path(argument)
    if path.is_dir():
        found: list[str] = []
        _walk(path, 0, _MAX_DEPTH, found)
        return sorted(found)
    if path.exists() or path.is_symlink():
        return [os.path.abspath(path)]
    raise FileAccessError(f"{argument}: scenario path not found", reason="not_found")
