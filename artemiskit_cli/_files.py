"""Output files: checked before any model call, written whole or not at all."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from artemiskit import FileAccessError

__all__ = ["check_new_outputs", "write_new_file"]


def check_new_outputs(*paths: str | None) -> None:
    """Refuse outputs that exist, coincide, or whose folder is missing.

    Raises:
        FileAccessError: An output path cannot be used (exit 1).
    """
    seen: set[str] = set()
    for given in paths:
        if given is None:
            continue
        path = Path(given)
        resolved = os.path.realpath(path)
        if resolved in seen:
            raise FileAccessError(
                f"output paths must be distinct: {given} is given twice",
                reason="output_not_distinct",
            )
        seen.add(resolved)
        if os.path.lexists(path):
            raise FileAccessError(
                f"output {given} already exists; outputs must be new paths",
                reason="output_exists",
            )
        if not path.parent.resolve().is_dir():
            raise FileAccessError(
                f"the folder of output {given} does not exist",
                reason="output_folder_missing",
            )


def write_new_file(path: str, data: bytes, *, mode: int = 0o644) -> None:
    """Write ``data`` to a new file atomically, never replacing anything.

    The bytes go to a private temporary file in the same folder, which is flushed
    to disk and then hard-linked to ``path`` (failing if ``path`` appeared in the
    meantime), so a reader never sees a partial file.

    Raises:
        FileAccessError: The file could not be written (exit 1).
    """
    target = Path(path)
    folder = target.parent.resolve()
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".akit-", suffix=".tmp")
    except OSError as exc:
        raise FileAccessError(
            f"cannot write {path}: {exc.strerror}", reason="output_unwritable"
        ) from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.link(temp, target)
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except FileExistsError as exc:
        raise FileAccessError(
            f"output {path} appeared while the run was going; nothing was replaced",
            reason="output_exists",
        ) from exc
    except OSError as exc:
        raise FileAccessError(
            f"cannot write {path}: {exc.strerror}", reason="output_unwritable"
        ) from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
