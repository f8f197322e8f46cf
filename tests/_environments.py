"""A custom environment for behaviour tests: a plain dict of files, no path rules.

It is what a third-party environment could look like: it trusts the engine to have
checked every path, and it can be told to leave its cleanup unresolved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs
from anyio.lowlevel import checkpoint

from artemiskit import FileOperationError
from artemiskit.environments import CleanupReport

if TYPE_CHECKING:
    from collections.abc import Mapping


@attrs.define
class DictEnvironment:
    """Files in a dict; ``leak`` makes `close` report unresolved cleanup."""

    files: dict[str, str]
    leak: bool = False
    kind: str = "simulated"
    supports_checkpoint: bool = True

    async def read_file(self, path: str) -> str:
        await checkpoint()
        if path not in self.files:
            raise FileOperationError("no such file", reason="not_found")
        return self.files[path]

    async def list_files(self, directory: str | None = None) -> list[str]:
        await checkpoint()
        prefix = f"{directory.rstrip('/')}/" if directory else ""
        return sorted(p for p in self.files if p.startswith(prefix))

    async def write_file(self, path: str, content: str) -> None:
        await checkpoint()
        self.files[path] = content

    async def delete_file(self, path: str) -> None:
        await checkpoint()
        if self.files.pop(path, None) is None:
            raise FileOperationError("no such file", reason="not_found")

    async def snapshot(self) -> dict[str, str]:
        await checkpoint()
        return dict(sorted(self.files.items()))

    async def close(self) -> CleanupReport:
        await checkpoint()
        if self.leak:
            return CleanupReport(
                status="unresolved", reason="resource_left", unresolved=1
            )
        return CleanupReport(status="complete")


@attrs.define
class DictFactory:
    """Creates a `DictEnvironment` per run and keeps them for inspection."""

    leak: bool = False
    kind: str = "simulated"
    supports_checkpoint: bool = True
    default_cleanup_timeout_ms: int = 1000
    created: list[DictEnvironment] = attrs.Factory(list)

    async def create(self, *, run_id: str, files: Mapping[str, str]) -> DictEnvironment:
        await checkpoint()
        environment = DictEnvironment(
            dict(files),
            leak=self.leak,
            kind=self.kind,
            supports_checkpoint=self.supports_checkpoint,
        )
        self.created.append(environment)
        return environment
