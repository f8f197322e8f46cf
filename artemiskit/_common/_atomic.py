"""Writing a file whole or not at all: the one atomic writer of the SDK.

Suite records, run records, transcripts, the prompt-response store's manifests
and baselines, and every file the CLI writes (public as
``artemiskit.records.write_atomically``) are all written here: the bytes go to a private
temporary file in the target's folder, are flushed (to disk when ``durable``), and
then replace the target or are hard-linked to a new name. A reader, or a process
killed at any moment, sees the old file, the new file or none, never a part.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import TYPE_CHECKING

from artemiskit._errors import FileAccessError

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["write_atomically"]


def _sync_folder(folder: str) -> None:
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def write_atomically(
    path: str | os.PathLike[str],
    data: bytes | Iterable[bytes],
    *,
    mode: int = 0o644,
    replace: bool = True,
    durable: bool = True,
) -> None:
    """Write ``data`` to ``path`` whole or not at all.

    The bytes go to a private temporary file in the same folder, are flushed to
    disk (``durable``), and are then renamed over ``path`` (``replace``) or
    hard-linked to it (failing if it exists). Without ``durable`` the file is
    still whole or absent for any reader and after a killed process; only a
    power loss could lose it.

    Args:
        path: The file to write; its folder must exist.
        data: The whole content, or its pieces in order (streamed to the
            temporary file: a large file need not be held in memory).
        mode: The file's permissions (the temporary file has them from the start).
        replace: Replace an existing file; else refuse one (``output_exists``).
        durable: Flush the file and its folder to disk.

    Raises:
        FileAccessError: The file could not be written (``output_unwritable``)
            or, without ``replace``, exists already (``output_exists``) (exit 1).
            The message names the file, not its folder; the OS error is the
            exception's ``__cause__``.

    Example:
        ``write_atomically("out/report.html", page, replace=False)`` writes a new
        file or fails, and never leaves a part of one.
    """
    # Plain strings, not Path objects: a suite writes a file per run here, and
    # pathlib interns every part of every name it parses, for good.
    target = os.fspath(path)
    folder = os.path.dirname(target) or os.curdir
    name = os.path.basename(target)
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".akit-", suffix=".tmp")
    except OSError as exc:
        raise FileAccessError(
            f"cannot write into {folder}: {exc.strerror}", reason="output_unwritable"
        ) from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), mode)
            if isinstance(data, bytes):
                handle.write(data)
            else:
                handle.writelines(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        if replace:
            os.replace(temp, target)
        else:
            os.link(temp, target)
        if durable:
            _sync_folder(folder)
    except FileExistsError as exc:
        raise FileAccessError(
            f"{name} already exists; nothing was replaced",
            reason="output_exists",
        ) from exc
    except OSError as exc:
        raise FileAccessError(
            f"cannot write {name}: {exc.strerror}", reason="output_unwritable"
        ) from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
