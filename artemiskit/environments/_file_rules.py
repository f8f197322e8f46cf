"""The file rules every built-in environment applies, in one place.

Both environments must answer every file request identically, so the refusals, their
messages and the order of the checks live here:

1. the path rules of SPEC 3, plus at most 255 bytes per path segment, which is what
   a real file system allows (``invalid_path``);
2. for a write, the size bounds: one file ≤ 1 MiB (``file_too_large``), all files
   together ≤ 64 MiB (``environment_full``), counted in UTF-8 bytes;
3. the structure, walking from the root: a parent that is a file
   (``not_a_directory``), then the target itself (``is_directory``, ``not_found``).

Directories exist only as the parents of files: deleting the last file of a directory
removes the directory, and listing a directory that holds no file returns nothing.
Messages never repeat the path, which may be sensitive.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from artemiskit._common._limits import (
    MAX_ENVIRONMENT_BYTES,
    MAX_FILE_BYTES,
    MAX_PATH_BYTES,
)
from artemiskit._common._paths import normalize_path
from artemiskit._errors import FileOperationError

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

__all__ = [
    "MAX_SEGMENT_BYTES",
    "REFUSAL_MESSAGES",
    "FileMap",
    "SizeLedger",
    "checked_directory",
    "checked_path",
    "encoded_size",
    "refusal",
]

# One name in a directory; the Linux limit, applied by both environments alike.
MAX_SEGMENT_BYTES = 255

REFUSAL_MESSAGES: Mapping[str, str] = {
    "not_found": "no such file",
    "invalid_path": "the path is not allowed",
    "is_directory": "the path names a directory, not a file",
    "not_a_directory": "a parent of the path is a file, not a directory",
    "file_too_large": f"a file may hold at most {MAX_FILE_BYTES} bytes (UTF-8)",
    "environment_full": (
        f"all files together may hold at most {MAX_ENVIRONMENT_BYTES} bytes (UTF-8)"
    ),
}


def refusal(reason: str, detail: str | None = None) -> FileOperationError:
    """Build the model-visible refusal for ``reason``.

    Args:
        reason: One of the keys of `REFUSAL_MESSAGES`.
        detail: Replaces the standard message (used for path-rule explanations).

    Returns:
        The error to raise.
    """
    return FileOperationError(detail or REFUSAL_MESSAGES[reason], reason=reason)


def checked_path(path: str) -> str:
    """Return the normalized form of a file path.

    Args:
        path: The path as the caller gave it.

    Returns:
        The path without ``.`` or empty segments.

    Raises:
        FileOperationError: ``invalid_path``, saying which rule the path breaks.
    """
    if len(path) > MAX_PATH_BYTES:
        normalized, problem = _checked(path)
    else:  # a run names the same few paths again and again
        normalized, problem = _remembered_check(path)
    if problem is not None:
        raise refusal("invalid_path", problem)
    return normalized


@functools.lru_cache(maxsize=1024)
def _remembered_check(path: str) -> tuple[str, str | None]:
    return _checked(path)


def _checked(path: str) -> tuple[str, str | None]:
    """The normalized path, and the rule it breaks (``None`` when valid)."""
    try:
        normalized = normalize_path(path)
    except ValueError as exc:
        return "", str(exc)
    if any(
        len(part.encode("utf-8", "surrogatepass")) > MAX_SEGMENT_BYTES
        for part in normalized.split("/")
    ):
        return "", f"a path segment is longer than {MAX_SEGMENT_BYTES} bytes"
    return normalized, None


def checked_directory(directory: str | None) -> str | None:
    """Return the normalized directory to list, or ``None`` for the root.

    ``None``, ``""``, ``"."`` and ``"./"`` name the root.

    Raises:
        FileOperationError: ``invalid_path``.
    """
    if directory is None or directory in ("", ".", "./"):
        return None
    return checked_path(directory)


def encoded_size(content: str) -> int:
    """Return the size of ``content`` in UTF-8 bytes (lone surrogates count as 3)."""
    return len(content.encode("utf-8", "surrogatepass"))


def _parents(path: str) -> Iterable[str]:
    segments = path.split("/")
    for end in range(1, len(segments)):
        yield "/".join(segments[:end])


class SizeLedger:
    """The UTF-8 size of every file, to apply the size bounds before a write."""

    def __init__(self) -> None:
        self._sizes: dict[str, int] = {}
        self._total = 0

    @property
    def total_bytes(self) -> int:
        """The size of all files together."""
        return self._total

    def check(self, path: str, content: str) -> int:
        """Check the size bounds for writing ``content`` at ``path``.

        Returns:
            The content's size in bytes.

        Raises:
            FileOperationError: ``file_too_large`` or ``environment_full``.
        """
        size = encoded_size(content)
        if size > MAX_FILE_BYTES:
            raise refusal("file_too_large")
        if self._total - self._sizes.get(path, 0) + size > MAX_ENVIRONMENT_BYTES:
            raise refusal("environment_full")
        return size

    def size(self, path: str) -> int | None:
        """Return the recorded size of ``path``, or ``None`` if none is recorded."""
        return self._sizes.get(path)

    def set(self, path: str, size: int) -> None:
        """Record that ``path`` now holds ``size`` bytes."""
        self._total += size - self._sizes.get(path, 0)
        self._sizes[path] = size

    def drop(self, path: str) -> None:
        """Record that ``path`` is gone."""
        self._total -= self._sizes.pop(path, 0)

    def clear(self) -> None:
        """Record that every file is gone."""
        self._sizes.clear()
        self._total = 0

    def copy(self) -> SizeLedger:
        """A ledger recording the same sizes, independent of this one."""
        copied = SizeLedger()
        copied._sizes = dict(self._sizes)
        copied._total = self._total
        return copied


class FileMap:
    """A path → text map that applies the file rules; the simulated file system.

    Paths given to its methods must already be normalized (`checked_path`).
    """

    def __init__(self) -> None:
        self._files: dict[str, str] = {}
        self.sizes = SizeLedger()

    @classmethod
    def from_files(cls, files: Mapping[str, str]) -> FileMap:
        """Build a map holding ``files``, applying every rule in sorted path order.

        Raises:
            FileOperationError: A path or size breaks the rules.
        """
        built = cls()
        for path, content in sorted((checked_path(p), c) for p, c in files.items()):
            built.write(path, content)
        return built

    def copy(self) -> FileMap:
        """A map holding the same files, independent of this one.

        The files were checked when they came into this map, so nothing is
        checked again.
        """
        copied = FileMap()
        copied._files = dict(self._files)
        copied.sizes = self.sizes.copy()
        return copied

    def files(self) -> dict[str, str]:
        """Return a copy of every file, sorted by path."""
        return {path: self._files[path] for path in sorted(self._files)}

    def _is_directory(self, path: str) -> bool:
        prefix = path + "/"
        return any(other.startswith(prefix) for other in self._files)

    def _check_parents(self, path: str) -> None:
        if any(parent in self._files for parent in _parents(path)):
            raise refusal("not_a_directory")

    def read(self, path: str) -> str:
        """Return the text at ``path``."""
        content = self._files.get(path)
        if content is not None:  # a file's parents are never files (see `write`)
            return content
        self._check_parents(path)
        if path in self._files:
            return self._files[path]
        raise refusal("is_directory" if self._is_directory(path) else "not_found")

    def write(self, path: str, content: str) -> None:
        """Create or replace the file at ``path``."""
        size = self.sizes.check(path, content)
        self._check_parents(path)
        if self._is_directory(path):
            raise refusal("is_directory")
        self._files[path] = content
        self.sizes.set(path, size)

    def delete(self, path: str) -> None:
        """Remove the file at ``path``."""
        self._check_parents(path)
        if path in self._files:
            del self._files[path]
            self.sizes.drop(path)
            return
        raise refusal("is_directory" if self._is_directory(path) else "not_found")

    def listing(self, directory: str | None) -> list[str]:
        """Return every file path under ``directory`` (``None``: all), sorted."""
        if directory is None:
            return sorted(self._files)
        self._check_parents(directory)
        if directory in self._files:
            raise refusal("not_a_directory")
        prefix = directory + "/"
        return sorted(path for path in self._files if path.startswith(prefix))
