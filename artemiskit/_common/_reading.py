"""Reading the small trusted and contract files: bounded, UTF-8, typed errors.

Every file is opened with ``O_NONBLOCK`` and checked with ``fstat`` before a byte is
read, so a FIFO, a device or a directory is refused instead of hanging the command.
A file a workflow names (a fixture, a scripted provider's script) is resolved one
path component at a time below its root with ``openat``-style calls: each component
is checked with ``lstat`` and opened with ``O_NOFOLLOW``, so neither a ``..`` nor a
symbolic link anywhere below the root can lead outside it.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from artemiskit._common._paths import normalize_path, path_problem
from artemiskit._errors import FileAccessError

if TYPE_CHECKING:
    from collections.abc import Callable

    from artemiskit._errors import ArtemisError, Problem

__all__ = [
    "decode_text",
    "read_file_below",
    "read_file_below_now",
    "read_text_file",
    "read_text_file_now",
]

_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)


def _read_regular(handle: int, limit: int) -> bytes | None:
    """Read at most ``limit + 1`` bytes of an open regular file; ``None`` if not one."""
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        return None
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = os.read(handle, min(limit + 1 - size, 1024 * 1024))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _read_path(
    source: str, what: str, limit: int, began: Callable[[], object] | None = None
) -> bytes:
    if began is not None:
        began()
    try:
        handle = os.open(source, _OPEN_FLAGS)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise FileAccessError(
            f"cannot read {what} file {source}: {reason}", reason="file_unreadable"
        ) from exc
    try:
        raw = _read_regular(handle, limit)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise FileAccessError(
            f"cannot read {what} file {source}: {reason}", reason="file_unreadable"
        ) from exc
    finally:
        os.close(handle)
    if raw is None:
        raise FileAccessError(
            f"cannot read {what} file {source}: not a regular file",
            reason="file_not_regular",
        )
    return raw


async def read_text_file(
    path: str | os.PathLike[str],
    *,
    what: str,
    limit: int,
    invalid: Callable[[Problem], ArtemisError],
    began: Callable[[], object] | None = None,
) -> str:
    """Read a UTF-8 text file of at most ``limit`` bytes.

    At most ``limit + 1`` bytes are read, so an oversize file costs no more than
    that. The file is opened without blocking and must be a regular file.

    Args:
        path: The file.
        what: What the file is, for messages (``"workflow"``, ``"script"`` ...).
        limit: The largest size accepted, in bytes.
        invalid: Builds the error for a file that is too large or not UTF-8.
        began: Called in the worker thread just before the file is opened.

    Raises:
        FileAccessError: The file is missing, unreadable or not a regular file (a
            FIFO, a device, a directory) (exit 1).
    """
    import anyio.to_thread  # not at module level: validation reads without a loop

    source = os.fspath(path)
    raw = await anyio.to_thread.run_sync(_read_path, source, what, limit, began)
    return decode_text(raw, what=what, limit=limit, source=source, invalid=invalid)


def read_text_file_now(
    path: str | os.PathLike[str],
    *,
    what: str,
    limit: int,
    invalid: Callable[[Problem], ArtemisError],
) -> str:
    """`read_text_file` in the calling thread, for callers without an event loop.

    Raises:
        FileAccessError: As `read_text_file`.
        ArtemisError: What ``invalid`` builds for an oversize or non-UTF-8 file.
    """
    source = os.fspath(path)
    raw = _read_path(source, what, limit)
    return decode_text(raw, what=what, limit=limit, source=source, invalid=invalid)


def decode_text(
    raw: bytes,
    *,
    what: str,
    limit: int,
    source: str,
    invalid: Callable[[Problem], ArtemisError],
) -> str:
    """Decode the bytes `read_text_file` or `read_file_below` read, as UTF-8.

    Raises:
        ArtemisError: What ``invalid`` builds for an oversize or non-UTF-8 file.
    """
    if len(raw) <= limit:
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            message = f"file is not valid UTF-8 (byte offset {exc.start})"
    else:
        message = f"{what} is larger than {limit // (1024 * 1024)} MiB ({limit} bytes)"
    from artemiskit._errors import Problem  # attrs, only once a file is refused

    raise invalid(Problem(message=message, source=source))


def _below(
    root: str, reference: str, what: str, limit: int, refuse: Callable[[str], Exception]
) -> bytes:
    segments = normalize_path(reference).split("/")
    try:
        cursor = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise refuse(f"the {what} root is not a readable directory") from exc
    opened = [cursor]
    try:
        for depth, name in enumerate(segments):
            try:
                info = os.stat(name, dir_fd=cursor, follow_symlinks=False)
            except FileNotFoundError:
                raise refuse(f"{what} file not found") from None
            except OSError as exc:
                raise refuse(f"{what} path is not readable") from exc
            if stat.S_ISLNK(info.st_mode):
                raise refuse(f"{what} path goes through a symbolic link")
            if depth < len(segments) - 1:
                if not stat.S_ISDIR(info.st_mode):
                    raise refuse(f"a {what} path component is not a directory")
                flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
                cursor = os.open(name, flags, dir_fd=cursor)
                opened.append(cursor)
                continue
            if not stat.S_ISREG(info.st_mode):
                raise refuse(f"{what} is not a regular file")
            handle = os.open(name, _OPEN_FLAGS | os.O_NOFOLLOW, dir_fd=cursor)
            opened.append(handle)
            raw = _read_regular(handle, limit)
            if raw is None:
                raise refuse(f"{what} is not a regular file")
            if len(raw) > limit:
                raise refuse(f"{what} is larger than {limit} bytes")
            return raw
    except OSError as exc:  # a component swapped for a link between checks
        raise refuse(f"{what} path is not readable (or was replaced)") from exc
    finally:
        for handle in reversed(opened):
            os.close(handle)
    raise AssertionError("unreachable")  # pragma: no cover


async def read_file_below(
    root: str | os.PathLike[str],
    reference: str,
    *,
    what: str,
    limit: int,
    refuse: Callable[[str], Exception],
) -> bytes:
    """Read the file ``reference`` names below ``root``, refusing any way out.

    ``reference`` must pass the path rules of SPEC 3 (relative, no ``..``, no
    backslash or NUL, at most 512 bytes); no component below ``root`` may be a
    symbolic link; the file must be a regular file of at most ``limit`` bytes.

    Args:
        root: The trusted directory the reference resolves under.
        reference: The relative path (from a workflow, or built from a model name).
        what: What the file is, for messages (``"fixture"``, ``"script"``).
        limit: The largest size accepted, in bytes.
        refuse: Builds the error raised for a message saying what is wrong (the
            message never repeats the path).

    Returns:
        The file's bytes.

    Raises:
        Exception: Whatever ``refuse`` builds.
    """
    problem = path_problem(reference)
    if problem is not None:
        raise refuse(problem)
    import anyio.to_thread

    return await anyio.to_thread.run_sync(
        _below, os.fspath(root), reference, what, limit, refuse
    )


def read_file_below_now(
    root: str | os.PathLike[str],
    reference: str,
    *,
    what: str,
    limit: int,
    refuse: Callable[[str], Exception],
) -> bytes:
    """`read_file_below` in the calling thread, for callers without an event loop.

    Offline validation reads a workflow's dataset this way (it runs no event loop).

    Raises:
        Exception: Whatever ``refuse`` builds.
    """
    problem = path_problem(reference)
    if problem is not None:
        raise refuse(problem)
    return _below(os.fspath(root), reference, what, limit, refuse)
