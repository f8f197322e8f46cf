"""Reading the small trusted and contract files: bounded, UTF-8, typed errors."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import anyio

from artemiskit._errors import FileAccessError, Problem

if TYPE_CHECKING:
    from collections.abc import Callable

    from artemiskit._errors import ArtemisError

__all__ = ["read_text_file"]


async def read_text_file(
    path: str | os.PathLike[str],
    *,
    what: str,
    limit: int,
    invalid: Callable[[Problem], ArtemisError],
) -> str:
    """Read a UTF-8 text file of at most ``limit`` bytes.

    At most ``limit + 1`` bytes are read, so an oversize file costs no more than
    that.

    Args:
        path: The file.
        what: What the file is, for messages (``"workflow"``, ``"script"`` ...).
        limit: The largest size accepted, in bytes.
        invalid: Builds the error for a file that is too large or not UTF-8.

    Raises:
        FileAccessError: The file is missing or unreadable (exit 1).
    """
    source = os.fspath(path)
    try:
        async with await anyio.open_file(source, "rb") as stream:
            raw = await stream.read(limit + 1)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise FileAccessError(
            f"cannot read {what} file {source}: {reason}", reason="file_unreadable"
        ) from exc
    if len(raw) > limit:
        size = f"{limit // (1024 * 1024)} MiB ({limit} bytes)"
        raise invalid(Problem(message=f"{what} is larger than {size}", source=source))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        message = f"file is not valid UTF-8 (byte offset {exc.start})"
        raise invalid(Problem(message=message, source=source)) from None
