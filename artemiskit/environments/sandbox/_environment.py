"""The Docker sandbox environment: real files in a hardened, disposable container.

One fresh container per run, created through aiodocker from an image chosen by trusted
configuration (never by the workflow, never pulled). The container runs one program,
the fixed POSIX-sh helper shipped beside this module (``helper.sh``), which
serves the file operations over the container's attached stdin/stdout; see
`artemiskit.environments.sandbox._channel`. Paths are checked here first and again
by the helper.

The container never outlives its owner: the owner attaches before starting it, the
engine closes the helper's stdin when that connection drops (``StdinOnce``), the
helper ends at end of input and the container removes itself (``AutoRemove``).

aiodocker is imported only when a sandbox is created, and only under asyncio: under
trio the factory refuses with `UnsupportedError`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, TypeVar

import anyio
import anyio.lowlevel

from artemiskit._errors import EnvironmentFailureError, FileOperationError
from artemiskit.environments._file_rules import (
    FileMap,
    SizeLedger,
    checked_directory,
    checked_path,
)
from artemiskit.environments.sandbox._channel import (
    BUILTIN_READ_BYTES,
    BUILTIN_WRITE_NULS,
    MAX_ANSWER_BYTES,
    HelperChannel,
    decode_listing,
    decode_text,
    encode_path,
)
from artemiskit.environments.sandbox._engine import (
    DEFAULT_SANDBOX_IMAGE,
    MAX_CLEANUP_TIMEOUT_MS,
    RUN_ID_LABEL,
    SANDBOX_CLEANUP_TIMEOUT_MS,
    SANDBOX_LABEL,
    SandboxSettings,
    docker_error_type,
    helper_program,
    open_engine,
    remove_run_containers,
    require_asyncio,
    stop_and_await_removal,
)

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Mapping

    from aiodocker import Docker

    from artemiskit.environments._base import CleanupReport

__all__ = [
    "DEFAULT_SANDBOX_IMAGE",
    "RUN_ID_LABEL",
    "SANDBOX_LABEL",
    "DockerSandboxEnvironment",
    "DockerSandboxFactory",
    "SandboxSettings",
]


_T = TypeVar("_T")

#: The longest a close waits for a healthy container to end and go by itself.
_SELF_REMOVAL_S = 1.0


class DockerSandboxEnvironment:
    """Files for one run, inside one hardened container (built by the factory).

    File operations are serialized; each is one round trip to the helper. A refusal
    raises `FileOperationError` with the same reason the simulated environment
    gives; a broken container or an operation interrupted halfway makes every
    further operation raise `EnvironmentFailureError`.
    """

    def __init__(
        self,
        *,
        docker: Docker,
        container_id: str,
        channel: HelperChannel,
        run_id: str,
        cleanup_timeout_ms: int,
    ) -> None:
        self._docker = docker
        self._container_id = container_id
        self._channel = channel
        self._run_id = run_id
        self._cleanup_timeout_ms = cleanup_timeout_ms
        self._ledger = SizeLedger()
        self._lock = anyio.Lock()
        self._broken = False
        self._closed = False
        self._report: CleanupReport | None = None

    @property
    def kind(self) -> str:
        """Always ``sandbox``."""
        return "sandbox"

    @property
    def supports_checkpoint(self) -> bool:
        """True: `snapshot` reads back every file of the work dir."""
        return True

    @property
    def container_id(self) -> str:
        """The id of the run's container (for diagnostics and tests)."""
        return self._container_id

    @property
    def run_id(self) -> str:
        """The run this environment was created for."""
        return self._run_id

    async def _call(self, request: Callable[[], Awaitable[_T]]) -> _T:
        """Run one channel request alone; anything but a refusal breaks the sandbox."""
        await self._acquire()
        try:
            self._check_usable()
            try:
                return await request()
            except FileOperationError:
                raise
            except BaseException:
                self._broken = True
                raise
        finally:
            self._lock.release()

    async def _acquire(self) -> None:
        """Take the lock; when it is free (the usual case), without yielding.

        A pending cancellation is still raised first. Not yielding keeps the
        event loop's other callbacks for while the helper works, off the round
        trip.
        """
        await anyio.lowlevel.checkpoint_if_cancelled()
        try:
            self._lock.acquire_nowait()
        except anyio.WouldBlock:
            await self._lock.acquire()

    def _check_usable(self) -> None:
        if self._closed or self._broken:
            raise EnvironmentFailureError(
                "the sandbox is closed" if self._closed else "the sandbox broke",
                reason="sandbox_closed" if self._closed else "sandbox_broken",
            )

    async def read_file(self, path: str) -> str:
        """Return a file's text.

        Raises:
            FileOperationError: ``invalid_path``, ``not_found``, ``is_directory`` or
                ``not_a_directory``.
            EnvironmentFailureError: The container or its helper failed.
        """
        target = checked_path(path)
        wire = encode_path(target)
        # A file written here larger than the helper's builtins take is read
        # at the size written, which the helper confirms; else (changed from
        # inside the container) it is read again, sized by the helper.
        size = self._ledger.size(target)
        channel = self._channel
        if size is not None and size > BUILTIN_READ_BYTES:
            header = f"S {wire} {size}\n"
            sized = await self._call(lambda: channel.read_at_size(header, size=size))
            if sized is not None:
                return decode_text(sized)
        header = f"R {wire}\n"
        return decode_text(
            await self._call(lambda: channel.read_frame(header, limit=MAX_ANSWER_BYTES))
        )

    async def list_files(self, directory: str | None = None) -> list[str]:
        """Return every file path under ``directory`` (or all), sorted.

        Raises:
            FileOperationError: ``invalid_path`` or ``not_a_directory``.
            EnvironmentFailureError: The container or its helper failed.
        """
        target = checked_directory(directory)
        argument = "-" if target is None else encode_path(target)
        header = f"L {argument}\n"
        return decode_listing(await self._call(lambda: self._channel.request(header)))

    async def write_file(self, path: str, content: str) -> None:
        """Create or replace a file, creating parent directories.

        Raises:
            FileOperationError: ``invalid_path``, ``file_too_large``,
                ``environment_full``, ``not_a_directory`` or ``is_directory``.
            EnvironmentFailureError: The container or its helper failed.
        """
        target = checked_path(path)
        size = self._ledger.check(target, content)
        payload = content.encode("utf-8", "surrogatepass")
        wire = encode_path(target)
        channel = self._channel
        try:
            # Larger than the builtins take, or with many NUL bytes (a step
            # each for them): copied by dd, answered by its records (C).
            if len(payload) > BUILTIN_READ_BYTES or (
                payload.count(0) > BUILTIN_WRITE_NULS
            ):
                header = f"C {wire} {len(payload)}\n"
                await self._call(lambda: channel.write_copied(header, payload))
            else:
                header = f"W {wire} {len(payload)}\n"
                await self._call(lambda: channel.request(header, payload))
        except FileOperationError as exc:
            if exc.reason == "environment_full":
                self._ledger.drop(target)
            raise
        self._ledger.set(target, size)

    async def delete_file(self, path: str) -> None:
        """Remove a file (and parent directories left empty).

        Raises:
            FileOperationError: ``invalid_path``, ``not_found``, ``is_directory`` or
                ``not_a_directory``.
            EnvironmentFailureError: The container or its helper failed.
        """
        target = checked_path(path)
        header = f"D {encode_path(target)}\n"
        await self._call(lambda: self._channel.request(header))
        self._ledger.drop(target)

    async def snapshot(self) -> dict[str, str]:
        """Read back every file of the work dir (path → text, sorted by path)."""
        return {path: await self.read_file(path) for path in await self.list_files()}

    async def close(self, *, timeout_ms: int | None = None) -> CleanupReport:
        """Stop and remove the container; idempotent.

        Shielded from cancellation and bounded by the cleanup timeout.

        Args:
            timeout_ms: Overrides the factory's cleanup timeout for this call.

        Returns:
            ``complete`` when the container is confirmed removed, else
            ``unresolved`` with a reason (``cleanup_timeout``, ``cleanup_failed``).
        """
        if self._report is not None:
            return self._report
        bound_s = (
            self._cleanup_timeout_ms if timeout_ms is None else timeout_ms
        ) / 1000
        deadline = time.monotonic() + bound_s
        with anyio.CancelScope(shield=True):
            self._closed = True
            if not self._broken:
                # A helper that answers ends at end of input and the engine
                # removes its container; a container that cannot end (paused,
                # say) is forced after _SELF_REMOVAL_S or half the bound.
                await stop_and_await_removal(
                    self._docker,
                    self._container_id,
                    self._channel.close,
                    timeout_s=min(bound_s / 2, _SELF_REMOVAL_S),
                )
            await self._channel.close()
            report = await remove_run_containers(
                self._docker,
                self._run_id,
                timeout_s=max(0.0, deadline - time.monotonic()),
                known=(self._container_id,),
            )
            await self._docker.close()
        self._report = report
        return report


class DockerSandboxFactory:
    """Creates a `DockerSandboxEnvironment` per run (``environment.kind: sandbox``).

    Args:
        settings: Trusted host settings; the defaults use `DEFAULT_SANDBOX_IMAGE`.
        docker_url: The Docker Engine address (e.g. ``unix:///var/run/docker.sock``);
            ``None`` uses ``DOCKER_HOST`` or the local socket.
        cleanup_timeout_ms: The cleanup bound (default 6,000 ms, at most 10,000 ms).
    """

    def __init__(
        self,
        settings: SandboxSettings | None = None,
        *,
        docker_url: str | None = None,
        cleanup_timeout_ms: int = SANDBOX_CLEANUP_TIMEOUT_MS,
    ) -> None:
        if not 0 <= cleanup_timeout_ms <= MAX_CLEANUP_TIMEOUT_MS:
            raise ValueError(
                f"cleanup_timeout_ms must be between 0 and {MAX_CLEANUP_TIMEOUT_MS}"
            )
        self._settings = settings or SandboxSettings()
        self._docker_url = docker_url
        self._cleanup_timeout_ms = cleanup_timeout_ms

    @property
    def kind(self) -> str:
        """Always ``sandbox``."""
        return "sandbox"

    @property
    def supports_checkpoint(self) -> bool:
        """Declared: its files are saved on pause and recreated on resume."""
        return True

    @property
    def default_cleanup_timeout_ms(self) -> int:
        """The cleanup bound: 6,000 ms unless configured (SPEC 3.2)."""
        return self._cleanup_timeout_ms

    @property
    def settings(self) -> SandboxSettings:
        """The trusted settings every container of this factory gets."""
        return self._settings

    async def create(
        self, *, run_id: str, files: Mapping[str, str]
    ) -> DockerSandboxEnvironment:
        """Create a fresh container for ``run_id`` holding ``files``.

        If anything fails or the call is cancelled midway, every container labelled
        with ``run_id`` is removed (shielded, bounded) before the error propagates.

        Args:
            run_id: The run the container belongs to; it labels the container.
            files: The initial files (path → text).

        Returns:
            The ready environment.

        Raises:
            UnsupportedError: Not running on asyncio, the Docker Engine does not
                answer, or the image is not installed (no container is created).
            FileOperationError: An initial file breaks the path or size rules.
            EnvironmentFailureError: The engine or the helper failed.
        """
        require_asyncio()
        initial = FileMap.from_files(files)
        docker = await open_engine(self._docker_url, self._settings.image)
        timeout_s = self._cleanup_timeout_ms / 1000
        container_id: str | None = None
        channel: HelperChannel | None = None
        try:
            config = self._settings.container_config(
                run_id=run_id, helper=helper_program()
            )
            # Shielded so that the id of a created container is never lost.
            with anyio.CancelScope(shield=True), anyio.fail_after(max(timeout_s, 1)):
                container = await docker.containers.create(config)
            container_id = container.id
            channel = HelperChannel(
                container.attach(stdin=True, stdout=True, stderr=True)
            )
            # Attached before it starts: the helper's input is this connection
            # from its first byte, and ends when it drops (see StdinOnce).
            await channel.connect()
            await container.start()
            await channel.ping()
            environment = DockerSandboxEnvironment(
                docker=docker,
                container_id=container_id,
                channel=channel,
                run_id=run_id,
                cleanup_timeout_ms=self._cleanup_timeout_ms,
            )
            for path, content in initial.files().items():
                await environment.write_file(path, content)
        except BaseException as exc:
            with anyio.CancelScope(shield=True):
                if channel is not None:
                    await channel.close()
                known = () if container_id is None else (container_id,)
                report = await remove_run_containers(
                    docker, run_id, timeout_s=timeout_s, known=known
                )
                await docker.close()
            if report.status != "complete":
                exc.add_note(
                    f"sandbox cleanup unresolved ({report.reason}): "
                    f"{report.unresolved} container(s) labelled "
                    f"{RUN_ID_LABEL}={run_id} may remain"
                )
            if isinstance(exc, docker_error_type()):
                raise EnvironmentFailureError(
                    f"the Docker engine refused the sandbox: {exc}",
                    reason="sandbox_engine_error",
                ) from exc
            if isinstance(exc, TimeoutError):
                raise EnvironmentFailureError(
                    "the Docker engine did not create the sandbox in time",
                    reason="sandbox_engine_timeout",
                ) from exc
            raise
        return environment
