"""Suites on Ray against the local executor (SPEC 15): when does Ray pay off?

Usage: ``python -m benchmarks.suite_runner_ray [--runs N]``; needs
``artemiskit[ray]``. It starts an in-process local Ray runtime on this machine
(2 CPUs, no dashboard, on 127.0.0.1) and prints JSON; it writes nothing outside a
temporary folder.

- ``instant``: N instant offline runs (scripted, simulated) on the local executor
  and on Ray, interleaved (local, Ray, local, Ray, local, Ray); runs per second
  and Ray's overhead per run.
- ``latency``: 200 runs at concurrency 100 against a loopback OpenAI-compatible
  server that answers after 200 ms, on the local executor and on Ray (one CPU
  per task, then a tenth of a CPU per task).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import anyio

from artemiskit import ArtemisKit, TrustedConfig
from artemiskit.providers import ProviderConfig
from artemiskit.suites import RayExecutor, SuiteExecutor
from benchmarks.suite_runner import _workflow

__all__ = ["main", "measure"]

_ANSWER = {
    "id": "c",
    "object": "chat.completion",
    "model": "m",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Done."},
            "finish_reason": "stop",
        }
    ],
    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
}


class _Slow(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        time.sleep(0.2)
        body = json.dumps(_ANSWER).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        del format, args


def _served(root: Path) -> Path:
    folder = root / "served"
    folder.mkdir(parents=True)
    data = {
        "version": 1,
        "name": "served",
        "target": {"provider": "slow", "model": "m"},
        "environment": {"kind": "simulated", "files": {"docs/a.md": "a"}},
        "tools": [{"name": "read_file", "allow": {"paths": ["docs/**"]}}],
        "conversation": {"turns": [{"user": "Answer."}]},
        "budgets": {"max_actions": 5, "timeout_ms": 60_000},
        "outcomes": [{"id": "answered", "final_response": {"contains": ["Done"]}}],
    }
    path = folder / "workflow.yaml"
    path.write_text(json.dumps(data), "utf-8")
    return path


async def _wall(
    kit: ArtemisKit,
    path: Path,
    runs: int,
    concurrency: int,
    executor: SuiteExecutor | None,
) -> float:
    started = time.perf_counter()
    result = await kit.run_suite(
        paths=[path], repeat=runs, concurrency=concurrency, executor=executor
    )
    wall = time.perf_counter() - started
    assert result.summary["totals"]["passed"] == runs, result.summary["totals"]
    return wall


async def _measure(runs: int) -> dict[str, Any]:
    import ray

    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    kit = ArtemisKit()
    out: dict[str, Any] = {"machine_cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        instant = _workflow(root / "instant", delay_ms=0)
        # The first Ray suite starts the workers: not timed.
        await _wall(kit, instant, 20, 4, RayExecutor())
        local_walls, ray_walls = [], []
        for _ in range(3):
            local_walls.append(await _wall(kit, instant, runs, 4, None))
            ray_walls.append(await _wall(kit, instant, runs, 4, RayExecutor()))
        local = statistics.median(local_walls)
        on_ray = statistics.median(ray_walls)
        out["instant"] = {
            "runs": runs,
            "local_runs_per_s": round(runs / local, 1),
            "ray_runs_per_s": round(runs / on_ray, 1),
            "ray_overhead_per_run_ms": round((on_ray - local) / runs * 1000, 2),
            "local_walls_s": [round(w, 3) for w in local_walls],
            "ray_walls_s": [round(w, 3) for w in ray_walls],
        }
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Slow)
        server.daemon_threads = True
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}/v1"
            config = TrustedConfig(
                providers={
                    "slow": ProviderConfig(name="slow", type="openai", base_url=url)
                }
            )
            slow_kit = ArtemisKit(config=config)
            served = _served(root)
            local_wall = await _wall(slow_kit, served, 200, 100, None)
            ray_wall = await _wall(slow_kit, served, 200, 100, RayExecutor())
            tenth_wall = await _wall(
                slow_kit, served, 200, 100, RayExecutor(num_cpus=0.1)
            )
        finally:
            server.shutdown()
            server.server_close()
        ideal = 200 / 100 * 0.2
        out["latency"] = {
            "runs": 200,
            "concurrency": 100,
            "model_latency_ms": 200,
            "ideal_wall_s": ideal,
            "local_wall_s": round(local_wall, 2),
            "ray_wall_s": round(ray_wall, 2),
            "ray_tenth_cpu_wall_s": round(tenth_wall, 2),
        }
    ray.shutdown()
    return out


def measure(runs: int = 1000) -> dict[str, Any]:
    """Run both measures and return their figures."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # Keep the runtime on 127.0.0.1 (Ray otherwise listens on every interface).
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    # A scratch runtime on the loopback address: no token file in the home folder.
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    return anyio.run(_measure, runs)


def main(argv: list[str] | None = None) -> int:
    """Parse the options, measure, print JSON."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.suite_runner_ray")
    parser.add_argument("--runs", type=int, default=1000, help="instant runs")
    arguments = parser.parse_args(argv)
    print(json.dumps(measure(arguments.runs), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
