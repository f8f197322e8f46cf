"""The Docker Engine side of the sandbox: trusted settings, engine checks, cleanup.

Everything here talks to the engine through aiodocker, imported inside the functions
so that ``import artemiskit`` never imports it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
from typing import TYPE_CHECKING, Any

import anyio
import attrs

from artemiskit._errors import EnvironmentFailureError, UnsupportedError
from artemiskit.environments._base import MAX_CLEANUP_TIMEOUT_MS, CleanupReport

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from aiodocker import Docker

__all__ = [
    "DEFAULT_SANDBOX_IMAGE",
    "MAX_CLEANUP_TIMEOUT_MS",
    "RUN_ID_LABEL",
    "SANDBOX_CLEANUP_TIMEOUT_MS",
    "SANDBOX_LABEL",
    "SandboxSettings",
    "docker_error_type",
    "helper_program",
    "install_hint",
    "open_engine",
    "remove_run_containers",
    "require_asyncio",
    "stop_and_await_removal",
]

DEFAULT_SANDBOX_IMAGE = "artemiskit-sandbox:busybox"
SANDBOX_LABEL = "io.artemiskit.sandbox"
RUN_ID_LABEL = "io.artemiskit.run-id"
SANDBOX_CLEANUP_TIMEOUT_MS = 6_000
#: Builds a busybox image from Debian's busybox-static with plain commands, as
#: scripts/ci-docker.sh does; the image name is appended to the last line.
_BUILD_RECIPE = (
    "apt-get download busybox-static",
    "dpkg-deb -x busybox-static_*.deb pkg",
    "mkdir -p rootfs/bin rootfs/sbin rootfs/usr/bin rootfs/usr/sbin rootfs/etc "
    "rootfs/tmp rootfs/work",
    "cp pkg/bin/busybox rootfs/bin/busybox",
    'for applet in $(rootfs/bin/busybox --list-full); do [ -e "rootfs/$applet" ] '
    '|| ln -s /bin/busybox "rootfs/$applet"; done',
    "printf 'root:x:0:0:root:/root:/bin/sh\\nnobody:x:65534:65534:nobody:/work:"
    "/bin/sh\\n' > rootfs/etc/passwd",
    "printf 'root:x:0:\\nnogroup:x:65534:\\n' > rootfs/etc/group",
    "tar -C rootfs --numeric-owner --owner=0 --group=0 -cf rootfs.tar .",
    "docker import --change 'CMD [\"/bin/sh\"]' rootfs.tar",
)


def install_hint(image: str) -> str:
    """Say how to install ``image`` (never pulled): plain commands that build it.

    The commands need Debian's ``busybox-static`` package (``apt-get download``)
    and the ``docker`` CLI, nothing from the ArtemisKit repository.
    """
    commands = [*_BUILD_RECIPE[:-1], f"{_BUILD_RECIPE[-1]} {shlex.quote(image)}"]
    return (
        f"Install the sandbox image {image!r} locally (it is never pulled): build it "
        "from Debian's busybox-static, in an empty directory, with\n"
        + "".join(f"    {command}\n" for command in commands)
        + "(or run `bash scripts/ci-docker.sh` from the ArtemisKit repository), or "
        "set `sandbox.image` in artemis.config.yaml to an installed busybox image."
    )


_MIB = 1024 * 1024
#: How often cleanup looks again at a container the engine is still removing.
_REMOVAL_POLL_S = 0.02


def _non_root_user(_: object, attribute: attrs.Attribute[str], value: str) -> None:
    match = re.fullmatch(r"(\d+):(\d+)", value)
    if match is None or int(match[1]) == 0 or int(match[2]) == 0:
        raise ValueError(f"{attribute.name} must be 'uid:gid', both non-zero")


@attrs.frozen(kw_only=True)
class SandboxSettings:
    """Trusted host settings of the Docker sandbox (``sandbox:`` in the config).

    Attributes:
        image: The local image to run; it must provide busybox ``sh`` (its
            ``read`` taking ``-r -d '' -n N``), ``base64``, ``dd``, ``find``,
            ``mkdir``, ``rm`` and ``rmdir``. Never pulled.
        memory_bytes: Memory limit; swap is disabled (``MemorySwap`` = ``Memory``).
            The tmpfs work dir counts against it.
        nano_cpus: CPU limit in billionths of a CPU.
        pids_limit: Most processes and threads the container may hold at once.
        tmpfs_size_bytes: Size of the writable tmpfs work dir.
        user: ``uid:gid`` the helper runs as; root is refused.
        work_dir: Absolute path of the tmpfs work dir inside the container.
    """

    image: str = attrs.field(
        default=DEFAULT_SANDBOX_IMAGE, validator=attrs.validators.min_len(1)
    )
    memory_bytes: int = attrs.field(
        default=256 * _MIB, validator=attrs.validators.ge(16 * _MIB)
    )
    nano_cpus: int = attrs.field(
        default=1_000_000_000, validator=attrs.validators.ge(10_000_000)
    )
    pids_limit: int = attrs.field(default=64, validator=attrs.validators.ge(8))
    tmpfs_size_bytes: int = attrs.field(
        default=80 * _MIB, validator=attrs.validators.ge(_MIB)
    )
    user: str = attrs.field(default="65534:65534", validator=_non_root_user)
    work_dir: str = attrs.field(
        default="/work",
        validator=attrs.validators.matches_re(r"/[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*"),
    )

    def container_config(self, *, run_id: str, helper: str) -> dict[str, Any]:
        """Return the Docker Engine container configuration for one run."""
        uid, gid = self.user.split(":")
        tmpfs = (
            f"rw,nosuid,nodev,noexec,size={self.tmpfs_size_bytes},uid={uid},gid={gid}"
        )
        return {
            "Image": self.image,
            "Cmd": ["/bin/sh", "-c", helper, "artemiskit-helper", self.work_dir],
            "Entrypoint": [],
            "User": self.user,
            "WorkingDir": self.work_dir,
            "Env": [],
            "Labels": {SANDBOX_LABEL: "1", RUN_ID_LABEL: run_id},
            "AttachStdin": True,
            "AttachStdout": True,
            "AttachStderr": True,
            "OpenStdin": True,
            # The engine closes the helper's stdin when the owner's attach
            # connection drops (the owner closed it, or died): the helper ends.
            "StdinOnce": True,
            "Tty": False,
            "NetworkDisabled": True,
            "HostConfig": {
                "NetworkMode": "none",
                "ReadonlyRootfs": True,
                "Tmpfs": {self.work_dir: tmpfs},
                "CapDrop": ["ALL"],
                "SecurityOpt": ["no-new-privileges"],
                "IpcMode": "none",
                "PidsLimit": self.pids_limit,
                "Memory": self.memory_bytes,
                "MemorySwap": self.memory_bytes,
                "NanoCpus": self.nano_cpus,
                "Init": True,
                "Privileged": False,
                "RestartPolicy": {"Name": "no"},
                # A stopped container removes itself: nothing of a dead owner
                # is needed for it to go.
                "AutoRemove": True,
                "LogConfig": {"Type": "none", "Config": {}},
            },
        }


def helper_program() -> str:
    """Return the text of the fixed helper program shipped with the package."""
    import importlib.resources

    helper = importlib.resources.files("artemiskit.environments.sandbox") / "helper.sh"
    return helper.read_text(encoding="utf-8")


def require_asyncio() -> None:
    """Refuse to go on unless running on asyncio (aiodocker needs it).

    Raises:
        UnsupportedError: The current event loop is not asyncio.
    """
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        raise UnsupportedError(
            "the Docker sandbox runs on asyncio only (aiodocker is asyncio-only); "
            "run ArtemisKit under asyncio, or use environment kind `simulated`",
            reason="sandbox_requires_asyncio",
        ) from None


def _label_filter(run_id: str) -> str:
    return json.dumps({"label": [f"{RUN_ID_LABEL}={run_id}"]})


async def remove_run_containers(
    docker: Docker, run_id: str, *, timeout_s: float, known: tuple[str, ...] = ()
) -> CleanupReport:
    """Force-remove every container labelled with ``run_id`` and confirm it.

    Runs shielded from cancellation and bounded by ``timeout_s``. A container the
    engine is already removing (it removes itself once stopped) is waited for.

    Args:
        docker: An open aiodocker client.
        run_id: The run whose containers go.
        timeout_s: The bound on the whole cleanup.
        known: Container ids known to belong to the run (found by label too).

    Returns:
        ``complete`` when no labelled container remains; otherwise ``unresolved``.
    """
    from aiodocker import DockerError

    suspected = max(1, len(known))
    with anyio.CancelScope(shield=True), anyio.move_on_after(timeout_s):
        try:
            listed = await docker.containers.list(
                all="true", filters=_label_filter(run_id)
            )
            ids = {*known, *(container.id for container in listed)}
            suspected = max(suspected, len(ids))
            await _delete(docker, sorted(ids))
            left = await docker.containers.list(
                all="true", filters=_label_filter(run_id)
            )
            # A container that stops itself (stdin EOF, AutoRemove) passes through
            # "exited" before "removing": ask again until none is listed.
            while left:
                suspected = max(suspected, len(left))
                await anyio.sleep(_REMOVAL_POLL_S)
                await _delete(docker, [c.id for c in left if c["State"] != "removing"])
                left = await docker.containers.list(
                    all="true", filters=_label_filter(run_id)
                )
        except DockerError:
            return CleanupReport(
                status="unresolved", reason="cleanup_failed", unresolved=suspected
            )
        return CleanupReport(status="complete")
    return CleanupReport(
        status="unresolved", reason="cleanup_timeout", unresolved=suspected
    )


async def stop_and_await_removal(
    docker: Docker,
    container_id: str,
    stop: Callable[[], Awaitable[None]],
    *,
    timeout_s: float,
) -> None:
    """Let a healthy container end itself and wait, bounded, until it is removed.

    ``stop`` closes the helper's input: the helper ends, and the engine removes
    the container (``AutoRemove``). Waiting on the engine's ``removed`` condition
    costs no polling and no kill; whatever is left after ``timeout_s`` is for
    `remove_run_containers` to force.
    """
    from aiodocker import DockerError

    container = docker.containers.container(container_id)

    async def removed() -> None:
        # 404: already gone before the wait was registered.
        with contextlib.suppress(DockerError):
            await container.wait(condition="removed")

    with anyio.move_on_after(timeout_s):
        async with anyio.create_task_group() as group:
            group.start_soon(removed)
            await stop()


async def _delete(docker: Docker, container_ids: list[str]) -> None:
    """Force-remove containers; one already gone or removing itself is fine."""
    from aiodocker import DockerError

    for container_id in container_ids:
        try:
            await docker.containers.container(container_id).delete(force=True, v=True)
        except DockerError as exc:
            # 404: gone; 409: already removing itself (AutoRemove).
            if exc.status not in (404, 409):
                raise


def docker_error_type() -> type[Exception]:
    """Return aiodocker's error class, importing aiodocker on first use."""
    from aiodocker import DockerError

    return DockerError


async def open_engine(url: str | None, image: str) -> Docker:
    """Return a client of an answering engine that holds ``image``; never pull.

    The engine is ``url``, else ``DOCKER_HOST``, else the current Docker context,
    else the local socket.

    Raises:
        UnsupportedError: The engine does not answer or the image is missing.
        EnvironmentFailureError: The engine failed to inspect the image.
    """
    import aiodocker

    # DOCKER_HOST wins over a configured Docker context, as with the docker CLI
    # (aiodocker alone would prefer DOCKER_CONTEXT / currentContext).
    url = url or os.environ.get("DOCKER_HOST") or None
    try:
        docker = aiodocker.Docker(url=url)
    except AssertionError:
        # aiodocker asserts (or, under ``python -O``, raises ValueError) when
        # it finds no engine address: no DOCKER_HOST, no context, no socket.
        raise UnsupportedError(
            "no Docker Engine is reachable for the sandbox (DOCKER_HOST is not "
            "set and no local Docker socket exists). Install Docker Engine and "
            "start it (e.g. `bash scripts/ci-docker.sh`), or set DOCKER_HOST. "
            + install_hint(image),
            reason="sandbox_engine_unreachable",
        ) from None
    except (ValueError, OSError, aiodocker.DockerError) as exc:
        raise UnsupportedError(
            f"no Docker Engine is reachable for the sandbox ({exc}). "
            + install_hint(image),
            reason="sandbox_engine_unreachable",
        ) from exc
    try:
        try:
            await docker.version()
        except (OSError, aiodocker.DockerError) as exc:
            raise UnsupportedError(
                f"the Docker Engine does not answer ({exc}). "
                "Start it (e.g. `bash scripts/ci-docker.sh`). " + install_hint(image),
                reason="sandbox_engine_unreachable",
            ) from exc
        try:
            await docker.images.inspect(image)
        except aiodocker.DockerError as exc:
            if exc.status != 404:
                raise EnvironmentFailureError(
                    f"the Docker Engine could not inspect the sandbox image: {exc}",
                    reason="sandbox_engine_error",
                ) from exc
            raise UnsupportedError(
                "the sandbox image is not installed. " + install_hint(image),
                reason="sandbox_image_missing",
            ) from exc
    except BaseException:
        with anyio.CancelScope(shield=True):
            await docker.close()
        raise
    return docker
