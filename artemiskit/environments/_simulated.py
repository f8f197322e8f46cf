"""The simulated environment: a detached in-memory file map per run (SPEC 4).

Always available, on every event loop anyio supports. It applies exactly the rules of
`artemiskit.environments._file_rules`, which the Docker sandbox applies too, so a
workflow sees the same answers in both (the shared conformance suite in
`artemiskit.testing` proves it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio

from artemiskit._errors import EnvironmentFailureError
from artemiskit.environments._base import CleanupReport
from artemiskit.environments._file_rules import (
    FileMap,
    checked_directory,
    checked_path,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["SimulatedEnvironment", "SimulatedFactory"]

SIMULATED_CLEANUP_TIMEOUT_MS = 1000


class SimulatedEnvironment:
    """Files held in memory for one run.

    The map is copied on creation and on `snapshot`, so nothing the caller holds is
    shared with the environment.

    Args:
        files: The initial files (path → text); paths are normalized and every rule
            applies, in sorted path order.
        run_id: The run this environment belongs to (informational).

    Raises:
        FileOperationError: An initial file breaks the path or size rules.
    """

    def __init__(
        self, files: Mapping[str, str] | None = None, *, run_id: str = ""
    ) -> None:
        self._map = _checked_map(files or {})
        self._run_id = run_id
        self._closed = False

    @property
    def kind(self) -> str:
        """Always ``simulated``."""
        return "simulated"

    @property
    def supports_checkpoint(self) -> bool:
        """Always true: `snapshot` captures everything the environment holds."""
        return True

    @property
    def run_id(self) -> str:
        """The run this environment was created for."""
        return self._run_id

    def _check_open(self) -> None:
        if self._closed:
            raise EnvironmentFailureError(
                "the simulated environment is closed", reason="environment_closed"
            )

    async def read_file(self, path: str) -> str:
        """Return a file's text.

        Raises:
            FileOperationError: ``invalid_path``, ``not_found``, ``is_directory`` or
                ``not_a_directory``.
        """
        # no scheduling point: a read changes nothing and waits for nothing, and
        # the engine's admission of the call already checked for a cancel
        self._check_open()
        return self._map.read(checked_path(path))

    async def list_files(self, directory: str | None = None) -> list[str]:
        """Return every file path under ``directory`` (or all), sorted.

        A directory that holds no file lists as empty.

        Raises:
            FileOperationError: ``invalid_path`` or ``not_a_directory``.
        """
        await anyio.lowlevel.checkpoint()
        self._check_open()
        return self._map.listing(checked_directory(directory))

    async def write_file(self, path: str, content: str) -> None:
        """Create or replace a file; parent directories come into being with it.

        Raises:
            FileOperationError: ``invalid_path``, ``file_too_large``,
                ``environment_full``, ``not_a_directory`` or ``is_directory``.
        """
        await anyio.lowlevel.checkpoint()
        self._check_open()
        self._map.write(checked_path(path), content)

    async def delete_file(self, path: str) -> None:
        """Remove a file.

        Raises:
            FileOperationError: ``invalid_path``, ``not_found``, ``is_directory`` or
                ``not_a_directory``.
        """
        await anyio.lowlevel.checkpoint()
        self._check_open()
        self._map.delete(checked_path(path))

    async def snapshot(self) -> dict[str, str]:
        """Return a copy of every file, sorted by path.

        A pending cancellation lands here; otherwise it answers without giving
        the event loop a turn (a copy in memory waits for nothing).
        """
        await anyio.lowlevel.checkpoint_if_cancelled()
        self._check_open()
        return self._map.files()

    async def close(self) -> CleanupReport:
        """Drop the files; idempotent, always ``complete``."""
        self._closed = True
        self._map = _CLOSED_MAP
        return _COMPLETE


def _checked_map(files: Mapping[str, str]) -> FileMap:
    """A new map holding ``files``, whose rules are checked once per content.

    Every session of a workflow starts from the same files, and checking them
    costs more the more files there are (each against the others), so the
    checked map of recent contents is kept and copied.

    Raises:
        FileOperationError: A file breaks the path or size rules (refused
            every time: nothing is kept).
    """
    key = tuple(files.items())
    try:
        checked = _CHECKED.get(key)
    except TypeError:  # not text: the rules refuse it below
        return FileMap.from_files(files)
    if checked is None:
        checked = FileMap.from_files(files)
        if checked.sizes.total_bytes <= _CHECKED_BYTES:
            if len(_CHECKED) >= _CHECKED_KEPT:
                _CHECKED.clear()
            _CHECKED[key] = checked
    return checked.copy()


#: Checked maps (never written to) by their files in the order given.
_CHECKED: dict[tuple[tuple[str, str], ...], FileMap] = {}
_CHECKED_KEPT = 16
#: Larger file sets are checked for every environment (memory stays bounded).
_CHECKED_BYTES = 1024 * 1024

#: What a closed environment holds: no file (never written: every operation of a
#: closed environment is refused before it reaches the map).
_CLOSED_MAP = FileMap()
#: The report of every close (frozen: one serves every environment).
_COMPLETE = CleanupReport(status="complete")


class SimulatedFactory:
    """Creates a `SimulatedEnvironment` per run (``environment.kind: simulated``)."""

    @property
    def kind(self) -> str:
        """Always ``simulated``."""
        return "simulated"

    @property
    def supports_checkpoint(self) -> bool:
        """Declared: its files are saved on pause and recreated on resume."""
        return True

    @property
    def default_cleanup_timeout_ms(self) -> int:
        """1,000 ms (SPEC 3.2)."""
        return SIMULATED_CLEANUP_TIMEOUT_MS

    async def create(
        self, *, run_id: str, files: Mapping[str, str]
    ) -> SimulatedEnvironment:
        """Create an environment holding a copy of ``files``.

        Args:
            run_id: The run the environment belongs to.
            files: The initial files (path → text).

        Returns:
            The new environment.

        Raises:
            FileOperationError: An initial file breaks the path or size rules.
        """
        # a pending cancellation lands here, as at any scheduling point, but
        # without one the map is built without a turn of the event loop: a
        # session's run gives the loop its turn at its first admission
        await anyio.lowlevel.checkpoint_if_cancelled()
        return SimulatedEnvironment(files, run_id=run_id)
