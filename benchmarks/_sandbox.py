"""Measure 4: the Docker sandbox against one ``docker exec`` per operation.

In-process figures over a real Docker engine: container ready time
(`DockerSandboxFactory.create`), cleanup time (``close``), and file operations
(read and write, 64 B and 64 KB) timed as interleaved pairs in the same container:
one round trip through the helper, then the same operation as one ``docker exec``
(created, started, its output read to the end and its exit code checked, all on the
exec's clock), and again. Each pair gives one ratio exec / helper; the figures are
the median and spread of those ratios.
"""

from __future__ import annotations

import time
import uuid
from typing import TYPE_CHECKING, Any

from benchmarks._stats import summarize

if TYPE_CHECKING:
    from artemiskit.environments.sandbox._environment import (
        DockerSandboxEnvironment,
        DockerSandboxFactory,
    )

__all__ = ["OPERATIONS", "SIZES", "main", "measure_sandbox"]

#: File sizes of the round trips, in bytes.
SIZES = {"64B": 64, "64KB": 64 * 1024}
OPERATIONS = tuple(f"{op} {label}" for label in SIZES for op in ("read", "write"))
_WRITE_SCRIPT = 'printf %s "$1" > "$2"'


async def _exec(docker: Any, container_id: str, command: list[str]) -> int:
    """Run one ``docker exec`` to completion; return how many bytes it printed.

    Raises:
        RuntimeError: The command's exit code is not 0.
    """
    execution = await docker.containers.container(container_id).exec(command)
    received = 0
    async with execution.start(detach=False) as stream:
        while (message := await stream.read_out()) is not None:
            received += len(message.data)
    exit_code = (await execution.inspect())["ExitCode"]
    if exit_code != 0:
        raise RuntimeError(f"docker exec {command[0]} exited {exit_code}")
    return received


async def _helper_op(
    environment: DockerSandboxEnvironment, op: str, path: str, content: str
) -> None:
    if op == "write":
        await environment.write_file(path, content)
    elif len(await environment.read_file(path)) != len(content):
        raise RuntimeError("the sandbox read returned the wrong size")


async def _exec_op(
    docker: Any, container_id: str, op: str, path: str, content: str
) -> None:
    if op == "write":
        await _exec(
            docker, container_id, ["sh", "-c", _WRITE_SCRIPT, "sh", content, path]
        )
    elif (received := await _exec(docker, container_id, ["cat", path])) != len(content):
        raise RuntimeError(f"docker exec cat printed {received} bytes")


async def _one_container(
    factory: DockerSandboxFactory, *, pairs: int, samples: dict[str, list[float]]
) -> None:
    import aiodocker

    def record(name: str, started: float) -> None:
        samples.setdefault(name, []).append(time.perf_counter() - started)

    started = time.perf_counter()
    environment = await factory.create(
        run_id=f"benchmark-{uuid.uuid4().hex[:12]}", files={}
    )
    record("ready", started)
    work_dir = factory.settings.work_dir
    try:
        for _ in range(pairs):
            # The channel's floor: a ping answered by the helper's shell builtins
            # alone (private API, used here only to split the round trip).
            started = time.perf_counter()
            await environment._channel.request("P\n")
            record("helper ping", started)
        async with aiodocker.Docker() as docker:
            for label, size in SIZES.items():
                content = "x" * size
                helper_path = f"bench/{label}.txt"
                exec_path = f"{work_dir}/bench/exec-{label}.txt"
                await _helper_op(environment, "write", helper_path, content)
                for op in ("write", "read"):
                    # Warm both paths once, then alternate: helper, exec, helper, ...
                    await _exec_op(
                        docker, environment.container_id, "write", exec_path, content
                    )
                    for _ in range(pairs):
                        started = time.perf_counter()
                        await _helper_op(environment, op, helper_path, content)
                        record(f"helper {op} {label}", started)
                        started = time.perf_counter()
                        await _exec_op(
                            docker, environment.container_id, op, exec_path, content
                        )
                        record(f"exec {op} {label}", started)
    finally:
        started = time.perf_counter()
        report = await environment.close()
        record("cleanup", started)
        if report.status != "complete":
            raise RuntimeError(f"sandbox cleanup unresolved: {report.reason}")


async def measure_sandbox(*, containers: int, pairs: int) -> dict[str, Any]:
    """Create ``containers`` sandboxes one after another and time everything.

    Args:
        containers: Sandboxes created (and cleaned up) one after another.
        pairs: Interleaved (helper, exec) pairs per operation and container.

    Returns:
        The figures, or a ``skipped`` entry with the reason when Docker, the image
        or aiodocker is unavailable.
    """
    from artemiskit import UnsupportedError

    try:
        from artemiskit.environments.sandbox._environment import DockerSandboxFactory
    except ImportError as exc:  # pragma: no cover - depends on the install
        return {"skipped": True, "reason": f"cannot import the sandbox: {exc}"}
    factory = DockerSandboxFactory()
    samples: dict[str, list[float]] = {}
    try:
        for _ in range(containers):
            await _one_container(factory, pairs=pairs, samples=samples)
    except UnsupportedError as exc:
        return {"skipped": True, "reason": f"{exc} ({exc.reason})"}
    ratios = {
        op: summarize(
            [
                exec_s / helper_s
                for helper_s, exec_s in zip(
                    samples[f"helper {op}"], samples[f"exec {op}"], strict=True
                )
            ]
        )
        for op in OPERATIONS
    }
    return {
        "skipped": False,
        "scope": "in-process, real Docker engine, interleaved pairs",
        "image": factory.settings.image,
        "containers": containers,
        "pairs_per_container": pairs,
        "operations": list(OPERATIONS),
        "ms": {name: summarize(values, scale=1e3) for name, values in samples.items()},
        "exec_vs_helper": ratios,
    }


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks._sandbox``: this measure alone, its JSON on stdout."""
    import argparse
    import json
    import sys

    import anyio

    parser = argparse.ArgumentParser(
        prog="python -m benchmarks._sandbox",
        description="Time the Docker sandbox alone (the figures of measure 4).",
    )
    parser.add_argument("--containers", type=int, default=5)
    parser.add_argument("--pairs", type=int, default=12)
    arguments = parser.parse_args(sys.argv[1:] if argv is None else argv)
    results = anyio.run(
        lambda: measure_sandbox(containers=arguments.containers, pairs=arguments.pairs)
    )
    sys.stdout.write(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
