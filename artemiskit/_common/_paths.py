"""The path rules of SPEC 3: relative POSIX paths, normalized, bounded."""

from __future__ import annotations

import functools

from artemiskit._common._limits import MAX_PATH_BYTES

__all__ = [
    "normalize_path",
    "path_problem",
    "script_reference",
    "script_reference_problem",
]


def path_problem(path: str) -> str | None:
    """Say why ``path`` breaks the path rules, or return ``None`` if it is valid.

    The message never repeats the path itself, which may be sensitive. Verdicts
    on recent paths of a valid length are remembered (a run reads the same few
    paths again and again); longer text is never kept.
    """
    if len(path) > MAX_PATH_BYTES:
        return _path_problem(path)
    return _remembered_problem(path)


@functools.lru_cache(maxsize=1024)
def _remembered_problem(path: str) -> str | None:
    return _path_problem(path)


def _path_problem(path: str) -> str | None:
    if not path:
        return "path is empty"
    if "\x00" in path:
        return "path contains a NUL character"
    if "\\" in path:
        return "path contains a backslash (use POSIX '/' separators)"
    try:
        size = len(path.encode("utf-8"))
    except UnicodeEncodeError:
        return "path is not valid Unicode text (it holds a lone surrogate escape)"
    if size > MAX_PATH_BYTES:
        return f"path is longer than {MAX_PATH_BYTES} bytes"
    if path.startswith("/"):
        return "path is absolute (paths are relative to the environment root)"
    segments = [s for s in path.split("/") if s not in ("", ".")]
    if ".." in segments:
        return "path contains a '..' segment"
    if not segments:
        return "path names the environment root, not a file"
    return None


def normalize_path(path: str) -> str:
    """Return the canonical form of a valid path (no ``.``, no empty segments).

    Recent paths' canonical forms are remembered.

    Raises:
        ValueError: The path breaks a rule; the message says which.
    """
    problem = path_problem(path)
    if problem is not None:
        raise ValueError(problem)
    return _normalized(path)


@functools.lru_cache(maxsize=1024)
def _normalized(path: str) -> str:
    return "/".join(s for s in path.split("/") if s not in ("", "."))


def script_reference(model: str) -> str:
    """The script file a ``scripted`` model names, relative to its root."""
    return f"{model}.script.yaml"


def script_reference_problem(model: str) -> str | None:
    """Say why a ``scripted`` model cannot name a script under its root, or ``None``.

    The model is a plain name or a relative POSIX path (``agent``,
    ``scripts/agent``): the path rules apply to ``MODEL.script.yaml``.
    """
    return path_problem(script_reference(model))
