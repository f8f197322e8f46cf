"""The Environment interface every environment implements (SPEC 4).

An environment owns the *files* the file tools act on. The detached state of the other
catalogue tools (documents, records, drafts, approvals, delegations) lives in the
session state and is the same for every environment.

Paths handed to an environment are already normalized by `normalize_path`; an
environment still refuses anything that would escape its root.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

import attrs

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "MAX_CLEANUP_TIMEOUT_MS",
    "CleanupReport",
    "Environment",
    "EnvironmentFactory",
    "cleanup_bound_ms",
]

#: The longest cleanup drain period anyone may choose, in ms (SPEC 3.2): the one
#: bound of ``cleanup_timeout_ms``, ``--cleanup-timeout`` and the sandbox's removal.
MAX_CLEANUP_TIMEOUT_MS = 10_000


def cleanup_bound_ms(requested: int | None, default: int) -> int:
    """The drain period a run uses: ``requested``, else ``default``, at most the bound.

    The one rule for every cleanup wait (the session's drain, the environment's
    close, the run's and the suite's MCP servers).
    """
    return min(requested or default, MAX_CLEANUP_TIMEOUT_MS)


@attrs.frozen(kw_only=True)
class CleanupReport:
    """What closing an environment confirmed.

    Attributes:
        status: ``complete`` when everything the environment owned is confirmed
            gone; ``unresolved`` when something may remain (exit 7).
        reason: A reason code when unresolved (e.g. ``cleanup_timeout``).
        unresolved: How many owned resources were not confirmed removed.
    """

    status: Literal["complete", "unresolved"]
    reason: str | None = None
    unresolved: int = 0


@runtime_checkable
class Environment(Protocol):
    """Files for one run, disposable.

    File methods raise `artemiskit.FileOperationError` for a request the model can be
    told about (missing file, size bound) and `artemiskit.EnvironmentFailureError`
    for anything else.
    """

    @property
    def kind(self) -> str:
        """The environment kind, e.g. ``simulated`` or ``sandbox``."""
        ...

    @property
    def supports_checkpoint(self) -> bool:
        """Whether `snapshot` captures everything a resumed run needs."""
        ...

    async def read_file(self, path: str) -> str:
        """Return a file's text."""
        ...

    async def list_files(self, directory: str | None = None) -> list[str]:
        """Return every file path under ``directory`` (or all), sorted."""
        ...

    async def write_file(self, path: str, content: str) -> None:
        """Create or replace a file, creating parent directories."""
        ...

    async def delete_file(self, path: str) -> None:
        """Remove a file."""
        ...

    async def snapshot(self) -> dict[str, str]:
        """Return every file (path → text) as it is now."""
        ...

    async def close(self) -> CleanupReport:
        """Release everything the environment owns; idempotent.

        The caller bounds the time and shields it from cancellation.
        """
        ...


class EnvironmentFactory(Protocol):
    """Creates a fresh environment for each run."""

    @property
    def kind(self) -> str:
        """The ``environment.kind`` this factory serves."""
        ...

    @property
    def supports_checkpoint(self) -> bool:
        """Whether a run in its environments may be checkpointed.

        A resumed run gets a fresh environment from `create`, holding the files its
        paused environment's `snapshot` returned; declare ``True`` only when that
        reproduces everything the run needs. A factory written before this
        property was declared, and so without it, is treated as ``False``.
        """
        ...

    @property
    def default_cleanup_timeout_ms(self) -> int:
        """The drain period used when the caller gives none."""
        ...

    async def create(self, *, run_id: str, files: Mapping[str, str]) -> Environment:
        """Create an environment holding ``files``, labelled with ``run_id``.

        Raises:
            UnsupportedError: The environment cannot run here (exit 3).
        """
        ...
