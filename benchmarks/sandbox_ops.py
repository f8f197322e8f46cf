"""Micro-measurement: sandbox helper round trips versus one `docker exec` each.

Usage: ``python benchmarks/sandbox_ops.py [--ops 200] [--execs 20]`` (needs the
engine and image of ``scripts/ci-docker.sh``). Prints one line per figure.
"""

from __future__ import annotations

import argparse
import statistics
import time

import aiodocker
import anyio

from artemiskit.environments._sandbox import DockerSandboxFactory


async def _exec_once(docker: aiodocker.Docker, container_id: str) -> None:
    execution = await docker.containers.container(container_id).exec(
        ["cat", "/work/notes.txt"]
    )
    async with execution.start(detach=False) as stream:
        while await stream.read_out() is not None:
            pass


async def main(ops: int, execs: int) -> None:
    env = await DockerSandboxFactory().create(
        run_id="benchmark-sandbox-ops", files={"notes.txt": "hello\n" * 100}
    )
    try:
        figures: dict[str, list[float]] = {"read": [], "write": [], "list": []}
        for n in range(ops):
            start = time.perf_counter()
            await env.read_file("notes.txt")
            figures["read"].append(time.perf_counter() - start)
            start = time.perf_counter()
            await env.write_file(f"out/{n % 10}.txt", "x" * 1000)
            figures["write"].append(time.perf_counter() - start)
            start = time.perf_counter()
            await env.list_files()
            figures["list"].append(time.perf_counter() - start)
        exec_times: list[float] = []
        async with aiodocker.Docker() as docker:
            for _ in range(execs):
                start = time.perf_counter()
                await _exec_once(docker, env.container_id)
                exec_times.append(time.perf_counter() - start)
        figures["docker exec (cat)"] = exec_times
    finally:
        await env.close()
    for name, times in figures.items():
        median_ms = statistics.median(times) * 1000
        mean_ms = statistics.fmean(times) * 1000
        print(
            f"{name:18} n={len(times):4}  "
            f"median {median_ms:6.2f} ms  mean {mean_ms:6.2f} ms"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=200)
    parser.add_argument("--execs", type=int, default=20)
    arguments = parser.parse_args()
    anyio.run(main, arguments.ops, arguments.execs)
