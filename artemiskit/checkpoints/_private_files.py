"""Private-file primitives for local checkpoints (POSIX only).

Everything goes through a directory file descriptor verified once (not a symbolic
link, owned by the effective uid, mode exactly 0700), so a directory swapped after
the check is never followed. Files are opened with ``O_NOFOLLOW | O_NONBLOCK`` (a
FIFO put in a file's place never blocks the open) and checked with ``fstat`` on the
open descriptor: a regular file, owned by the effective uid, mode exactly 0600, one
hard link, within its size bound. Writes use an exclusive temporary file
(``O_CREAT | O_EXCL``, 0600), fsync, an atomic rename and a directory fsync.

Refusals are `CheckpointError`; other operating system failures `FileAccessError`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat

from artemiskit._errors import CheckpointError, FileAccessError

__all__ = [
    "DIRECTORY_MODE",
    "FILE_MODE",
    "TEMP_SUFFIX",
    "create_exclusive",
    "fsync_directory",
    "not_a_file",
    "open_directory",
    "open_private_file",
    "read_private_file",
    "remove_stale_temporaries",
    "verify_directory",
    "write_atomically",
]

DIRECTORY_MODE = 0o700
FILE_MODE = 0o600
TEMP_SUFFIX = ".tmp"

_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC
_NONBLOCKING = _NOFOLLOW | os.O_NONBLOCK
_READ_CHUNK = 1024 * 1024


def _io_error(action: str, where: str, exc: OSError) -> FileAccessError:
    return FileAccessError(
        f"could not {action} in checkpoint directory {where}: {exc.strerror}"
    )


def verify_directory(fd: int, where: str) -> None:
    """Check an open directory: a directory, ours, mode exactly 0700.

    Raises:
        CheckpointError: ``not_a_directory``, ``foreign_owner`` or
            ``unsafe_permissions``.
    """
    status = os.fstat(fd)
    if not stat.S_ISDIR(status.st_mode):
        raise CheckpointError(
            f"checkpoint location {where} is not a directory", reason="not_a_directory"
        )
    if status.st_uid != os.geteuid():
        raise CheckpointError(
            f"checkpoint directory {where} belongs to another user",
            reason="foreign_owner",
        )
    if stat.S_IMODE(status.st_mode) != DIRECTORY_MODE:
        raise CheckpointError(
            f"checkpoint directory {where} must have mode 0700 (it has "
            f"{stat.S_IMODE(status.st_mode):04o}); fix it with chmod 700 if the "
            "content is trusted",
            reason="unsafe_permissions",
        )


def open_directory(
    name: str, *, where: str, create: bool, parent_fd: int | None = None
) -> int:
    """Open (and with ``create``, make) a private directory and verify it.

    Args:
        name: The directory path (relative to ``parent_fd`` when given).
        where: How messages name the directory.
        create: Make it with mode 0700 when missing.
        parent_fd: Resolve ``name`` relative to this directory.

    Returns:
        A verified directory file descriptor; the caller closes it.

    Raises:
        CheckpointError: ``checkpoint_missing`` when absent and not created,
            ``unsafe_link`` for a symbolic link, or a `verify_directory` refusal.
        FileAccessError: The directory could not be made or opened.
    """
    created = False
    if create:
        try:
            os.mkdir(name, DIRECTORY_MODE, dir_fd=parent_fd)
            created = True
        except FileExistsError:
            pass
        except OSError as exc:
            raise _io_error("create the directory", where, exc) from exc
    try:
        fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW, dir_fd=parent_fd)
    except FileNotFoundError as exc:
        raise CheckpointError(
            f"no checkpoint at {where}", reason="checkpoint_missing"
        ) from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP or _is_link(name, parent_fd):
            raise CheckpointError(
                f"checkpoint directory {where} is a symbolic link; use the real path",
                reason="unsafe_link",
            ) from exc
        if exc.errno == errno.ENOTDIR:
            raise CheckpointError(
                f"checkpoint location {where} is not a directory",
                reason="not_a_directory",
            ) from exc
        raise _io_error("open the directory", where, exc) from exc
    try:
        if created and os.fstat(fd).st_uid == os.geteuid():
            os.fchmod(fd, DIRECTORY_MODE)  # the umask may have removed bits
        verify_directory(fd, where)
    except OSError as exc:
        os.close(fd)
        raise _io_error("check the directory", where, exc) from exc
    except BaseException:
        os.close(fd)
        raise
    return fd


def _is_link(name: str, parent_fd: int | None) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(name, dir_fd=parent_fd).st_mode)
    except OSError:
        return False


def fsync_directory(dir_fd: int, where: str) -> None:
    """Make renames and removals in the directory durable."""
    try:
        os.fsync(dir_fd)
    except OSError as exc:
        raise _io_error("sync the directory", where, exc) from exc


def not_a_file(name: str, where: str) -> CheckpointError:
    """The refusal of a checkpoint file that is not a regular file (a FIFO, ...)."""
    return CheckpointError(
        f"{name} in checkpoint directory {where} is not a regular file",
        reason="not_a_file",
    )


def open_private_file(dir_fd: int, name: str, flags: int, *, where: str) -> int:
    """Open an existing checkpoint file without following links, and verify it.

    Raises:
        FileNotFoundError: The file does not exist (the caller decides).
        CheckpointError: ``unsafe_link``, ``not_a_file``, ``foreign_owner`` or
            ``unsafe_permissions``.
        FileAccessError: The file could not be opened.
    """
    try:
        fd = os.open(name, flags | _NONBLOCKING, dir_fd=dir_fd)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise CheckpointError(
                f"{name} in checkpoint directory {where} is a symbolic link",
                reason="unsafe_link",
            ) from exc
        if exc.errno == errno.ENXIO:  # a FIFO or socket opened for writing
            raise not_a_file(name, where) from exc
        raise _io_error(f"open {name}", where, exc) from exc
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise not_a_file(name, where)
        if status.st_nlink != 1:
            raise CheckpointError(
                f"{name} in checkpoint directory {where} has more than one link",
                reason="unsafe_link",
            )
        if status.st_uid != os.geteuid():
            raise CheckpointError(
                f"{name} in checkpoint directory {where} belongs to another user",
                reason="foreign_owner",
            )
        if stat.S_IMODE(status.st_mode) != FILE_MODE:
            raise CheckpointError(
                f"{name} in checkpoint directory {where} must have mode 0600 (it has "
                f"{stat.S_IMODE(status.st_mode):04o})",
                reason="unsafe_permissions",
            )
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_private_file(dir_fd: int, name: str, *, limit: int, where: str) -> bytes:
    """Read a whole checkpoint file of at most ``limit`` bytes.

    Raises:
        FileNotFoundError: The file does not exist (the caller decides).
        CheckpointError: An `open_private_file` refusal, or
            ``checkpoint_too_large``.
        FileAccessError: The file could not be read.
    """
    fd = open_private_file(dir_fd, name, os.O_RDONLY, where=where)
    too_large = CheckpointError(
        f"{name} in checkpoint directory {where} is over its size limit",
        reason="checkpoint_too_large",
    )
    try:
        if os.fstat(fd).st_size > limit:
            raise too_large
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(fd, _READ_CHUNK):
            total += len(chunk)
            if total > limit:
                raise too_large
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise _io_error(f"read {name}", where, exc) from exc
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def create_exclusive(dir_fd: int, name: str, data: bytes, *, where: str) -> None:
    """Create ``name`` exclusively (0600) with ``data``, fsynced (not the directory).

    Raises:
        FileExistsError: ``name`` already exists (the caller decides).
        FileAccessError: The file could not be written; it is removed again.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
    try:
        fd = os.open(name, flags, FILE_MODE, dir_fd=dir_fd)
    except FileExistsError:
        raise
    except OSError as exc:
        raise _io_error(f"create {name}", where, exc) from exc
    try:
        os.fchmod(fd, FILE_MODE)
        _write_all(fd, data)
        os.fsync(fd)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=dir_fd)
        raise _io_error(f"write {name}", where, exc) from exc
    finally:
        os.close(fd)


def write_atomically(dir_fd: int, name: str, data: bytes, *, where: str) -> None:
    """Replace ``name`` with ``data``: exclusive temp, fsync, rename, dir fsync.

    Raises:
        FileAccessError: The write failed; the previous ``name`` is untouched.
    """
    temporary = f".{name}.{secrets.token_hex(8)}{TEMP_SUFFIX}"
    create_exclusive(dir_fd, temporary, data, where=where)
    try:
        os.rename(temporary, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=dir_fd)
        raise _io_error(f"replace {name}", where, exc) from exc
    fsync_directory(dir_fd, where)


def remove_stale_temporaries(dir_fd: int, *, keep_prefix: str) -> None:
    """Remove temporary files a crashed writer left (best effort).

    Only called while holding the process claim, so no live writer owns them.
    Names starting with ``keep_prefix`` (another process's claim attempt) stay.
    """
    with contextlib.suppress(OSError):
        for entry in os.listdir(dir_fd):
            if (
                entry.startswith(".")
                and entry.endswith(TEMP_SUFFIX)
                and not entry.startswith(keep_prefix)
            ):
                with contextlib.suppress(OSError):
                    os.unlink(entry, dir_fd=dir_fd)
