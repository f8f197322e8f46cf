"""Measure 4: the Docker sandbox against one ``docker exec`` per operation.

In-process figures over a real Docker engine: container ready time
(`DockerSandboxFactory.create`), file-operation round trips through the helper
(read and write, 64 B and 64 KB), the same operations done with one ``docker exec``
each in the same container and the same run, and cleanup time (``close``).
"""

from __future__ import annotations

import time
import uuid
from typing import TYPE_CHECKING, Any

from benchmarks._stats import summarize

if TYPE_CHECKING:
    from artemiskit.environments._sandbox import DockerSandboxFactory

__all__ = ["SIZES", "measure_sandbox"]

#: File sizes of the round trips, in bytes.
SIZES = {"64B": 64, "64KB": 64 * 1024}
_WRITE_SCRIPT = 'printf %s "$1" > "$2"'


async def _exec(docker: Any, container_id: str, command: list[str]) -> int:
    """Run one ``docker exec`` to completion; return how many bytes it printed."""
    execution = await docker.containers.container(container_id).exec(command)
    received = 0
    async with execution.start(detach=False) as stream:
        while (message := await stream.read_out()) is not None:
            received += len(message.data)
    return received


class _Clock:
    """Wall time per sample, and the host's CPU share of all the wall time."""

    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = {}
        self.cpu: dict[str, float] = {}
        self.wall: dict[str, float] = {}
        self._name = ""
        self._started = (0.0, 0.0)

    def start(self, name: str) -> None:
        self._name = name
        self._started = (time.perf_counter(), time.process_time())

    def stop(self) -> None:
        wall = time.perf_counter() - self._started[0]
        cpu = time.process_time() - self._started[1]
        self.samples.setdefault(self._name, []).append(wall)
        self.wall[self._name] = self.wall.get(self._name, 0.0) + wall
        self.cpu[self._name] = self.cpu.get(self._name, 0.0) + cpu


async def _one_container(
    factory: DockerSandboxFactory, *, ops: int, execs: int, clock: _Clock
) -> None:
    import aiodocker

    clock.start("ready")
    environment = await factory.create(
        run_id=f"benchmark-{uuid.uuid4().hex[:12]}", files={}
    )
    clock.stop()
    work_dir = factory.settings.work_dir
    try:
        for _ in range(ops):
            # The channel's floor: a ping answered by the helper's shell builtins
            # alone (private API, used here only to split the round trip).
            clock.start("sandbox ping")
            await environment._channel.request("P\n")
            clock.stop()
        for label, size in SIZES.items():
            content = "x" * size
            path = f"bench/{label}.txt"
            for _ in range(ops):
                clock.start(f"sandbox write {label}")
                await environment.write_file(path, content)
                clock.stop()
                clock.start(f"sandbox read {label}")
                text = await environment.read_file(path)
                clock.stop()
                if len(text) != size:
                    raise RuntimeError("the sandbox read returned the wrong size")
        async with aiodocker.Docker() as docker:
            for label, size in SIZES.items():
                content = "y" * size
                path = f"{work_dir}/bench/exec-{label}.txt"
                for _ in range(execs):
                    clock.start(f"exec write {label}")
                    await _exec(
                        docker,
                        environment.container_id,
                        ["sh", "-c", _WRITE_SCRIPT, "sh", content, path],
                    )
                    clock.stop()
                    clock.start(f"exec read {label}")
                    received = await _exec(
                        docker, environment.container_id, ["cat", path]
                    )
                    clock.stop()
                    if received != size:
                        raise RuntimeError(
                            f"docker exec cat printed {received} bytes, not {size}"
                        )
    finally:
        clock.start("cleanup")
        report = await environment.close()
        clock.stop()
        if report.status != "complete":
            raise RuntimeError(f"sandbox cleanup unresolved: {report.reason}")


async def measure_sandbox(*, containers: int, ops: int, execs: int) -> dict[str, Any]:
    """Create ``containers`` sandboxes one after another and time everything.

    Returns a ``skipped`` entry with the reason when Docker, the image or aiodocker
    is unavailable.
    """
    from artemiskit import UnsupportedError

    try:
        from artemiskit.environments._sandbox import DockerSandboxFactory
    except ImportError as exc:  # pragma: no cover - depends on the install
        return {"skipped": True, "reason": f"cannot import the sandbox: {exc}"}
    factory = DockerSandboxFactory()
    clock = _Clock()
    try:
        for _ in range(containers):
            await _one_container(factory, ops=ops, execs=execs, clock=clock)
    except UnsupportedError as exc:
        return {"skipped": True, "reason": f"{exc} ({exc.reason})"}
    figures = {
        name: summarize(values, scale=1e3) for name, values in clock.samples.items()
    }
    ratios = {
        f"{op} {label}": figures[f"exec {op} {label}"]["median"]
        / figures[f"sandbox {op} {label}"]["median"]
        for label in SIZES
        for op in ("read", "write")
    }
    return {
        "skipped": False,
        "scope": "in-process, real Docker engine",
        "image": factory.settings.image,
        "containers": containers,
        "ops_per_container": ops,
        "execs_per_container": execs,
        "ms": figures,
        "exec_vs_sandbox": ratios,
        "host_cpu_share": {
            name: clock.cpu[name] / clock.wall[name] for name in clock.samples
        },
    }
