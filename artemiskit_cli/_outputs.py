"""Output files: checked before any model call, written whole or not at all.

``-`` is never an output: every report, export, record and state file is written
to a file, and every output folder (a suite's, a checkpoint's, cassettes') is a
folder; ``-`` (which many tools read as standard output) is refused with exit 1
rather than becoming a file or folder named ``-``. Write ``./-`` for such a one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from artemiskit import FileAccessError

__all__ = [
    "check_apart_from_checkpoint",
    "check_new_outputs",
    "check_not_input",
    "refuse_dash",
    "write_new_file",
]


def refuse_dash(given: str | None) -> None:
    """Refuse ``-`` as an output file or folder (it does not mean standard output).

    Raises:
        FileAccessError: ``given`` is ``-`` (exit 1).
    """
    if given == "-":
        raise FileAccessError(
            "'-' is not an output here: reports and exports are written to files "
            "only (write ./- for a file named '-')",
            reason="output_is_dash",
        )


def check_new_outputs(*paths: str | None) -> None:
    """Refuse outputs that exist, coincide, or could not be created.

    Each output is proven creatable the way `write_new_file` will create it: a
    private temporary file is made in its folder and linked to its name, then both
    are removed. A folder that exists but cannot take a new file (read-only, on a
    read-only file system, a name too long) is found here, before any model call.

    Raises:
        FileAccessError: An output path cannot be used (exit 1).
    """
    seen: set[str] = set()
    for given in paths:
        if given is None:
            continue
        refuse_dash(given)
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
        _prove_creatable(given)


def check_not_input(output: str, given: str | None) -> None:
    """Refuse an output that is (or lies inside) an input, such as a cassette.

    Raises:
        FileAccessError: ``output`` is ``given`` or below it (exit 1).
    """
    if given is None:
        return
    written = os.path.realpath(output)
    read = os.path.realpath(given)
    if written == read or written.startswith(read.rstrip(os.sep) + os.sep):
        raise FileAccessError(
            f"output {output} is the input {given}: a cassette is never recorded "
            "over the one it replays",
            reason="output_not_distinct",
        )


def check_apart_from_checkpoint(directory: str, *paths: str | None) -> None:
    """Refuse outputs that are the checkpoint directory, inside it, or hold it.

    Checked before any model call: a record written over (or into) the private
    checkpoint directory would fail only after the model was paid for.

    Raises:
        FileAccessError: An output overlaps the checkpoint directory (exit 1).
    """
    folder = Path(os.path.realpath(directory))
    for given in paths:
        if given is None:
            continue
        output = Path(os.path.realpath(given))
        if output == folder or folder in output.parents or output in folder.parents:
            raise FileAccessError(
                f"output {given} overlaps the checkpoint directory {directory}; "
                "outputs and the checkpoint directory must be apart",
                reason="output_not_distinct",
            )


def _prove_creatable(path: str) -> None:
    """Create ``path`` as `write_new_file` would, then remove it again."""
    folder = Path(path).parent.resolve()
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".akit-", suffix=".probe")
    except OSError as exc:
        raise _unwritable(path, exc) from exc
    try:
        os.close(fd)
        os.link(temp, path)
        os.unlink(path)
    except FileExistsError as exc:
        raise FileAccessError(
            f"output {path} already exists; outputs must be new paths",
            reason="output_exists",
        ) from exc
    except OSError as exc:
        raise _unwritable(path, exc) from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)


def _unwritable(path: str, exc: OSError) -> FileAccessError:
    return FileAccessError(
        f"cannot create output {path}: {exc.strerror}", reason="output_unwritable"
    )


def write_new_file(path: str, data: bytes, *, mode: int = 0o644) -> None:
    """Write ``data`` to a new file atomically, never replacing anything.

    `artemiskit.records.write_atomically` without ``replace``: a reader never sees a
    partial file, and a file that appeared meanwhile is left alone.

    Raises:
        FileAccessError: The file could not be written, or ``path`` is ``-``
            (exit 1).
    """
    from artemiskit.records import write_atomically

    refuse_dash(path)
    try:
        write_atomically(path, data, mode=mode, replace=False)
    except FileAccessError as exc:
        if exc.reason == "output_exists":
            raise FileAccessError(
                f"output {path} appeared while the run was going; nothing was replaced",
                reason="output_exists",
            ) from exc
        cause = exc.__cause__
        why = cause.strerror if isinstance(cause, OSError) else exc.message
        raise FileAccessError(
            f"cannot write {path}: {why}", reason="output_unwritable"
        ) from exc
