"""`ToolEnvironment`: the environment as one tool call may use it.

A handler reaches files only through the environment in its context. The engine
hands it this handle instead of the run's environment: a ``read`` tool's handle
refuses writes (a read tool never changes state), no handle can close the run's
environment, and a handle dies when its call returns, so a task the handler left
running gets an error and has no effect.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit._errors import FileOperationError

if TYPE_CHECKING:
    from artemiskit.environments._base import CleanupReport, Environment

__all__ = ["ToolEnvironment"]


class ToolEnvironment:
    """One call's view of the run's environment (an `Environment` itself).

    Args:
        environment: The run's environment.
        writable: Whether the call's tool may write (``effect: write``).
    """

    __slots__ = ("_environment", "_writable")

    def __init__(self, environment: Environment, *, writable: bool) -> None:
        self._environment: Environment | None = environment
        self._writable = writable

    def retire(self) -> None:
        """End the handle: its call returned, so nothing may use it any more."""
        self._environment = None

    def _live(self) -> Environment:
        environment = self._environment
        if environment is None:
            raise FileOperationError(
                "the environment handle of a tool call is used after the call "
                "returned; nothing was done",
                reason="environment_handle_closed",
            )
        return environment

    def _writer(self) -> Environment:
        environment = self._live()
        if not self._writable:
            raise FileOperationError(
                "a read tool cannot change the environment; nothing was done",
                reason="read_only_tool",
            )
        return environment

    @property
    def kind(self) -> str:
        """The run's environment kind."""
        return self._live().kind

    @property
    def supports_checkpoint(self) -> bool:
        """Whether the run's environment supports checkpoints."""
        return self._live().supports_checkpoint

    async def read_file(self, path: str) -> str:
        """Return a file's text."""
        return await self._live().read_file(path)

    async def list_files(self, directory: str | None = None) -> list[str]:
        """Return every file path under ``directory`` (or all), sorted."""
        return await self._live().list_files(directory)

    async def snapshot(self) -> dict[str, str]:
        """Return every file (path → text) as it is now."""
        return await self._live().snapshot()

    async def write_file(self, path: str, content: str) -> None:
        """Create or replace a file (a ``write`` tool only)."""
        await self._writer().write_file(path, content)

    async def delete_file(self, path: str) -> None:
        """Remove a file (a ``write`` tool only)."""
        await self._writer().delete_file(path)

    async def close(self) -> CleanupReport:
        """Refused: the run, not a tool, closes its environment."""
        raise FileOperationError(
            "a tool cannot close the run's environment; nothing was done",
            reason="environment_not_closable",
        )
