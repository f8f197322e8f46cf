"""Per step with OpenTelemetry export on (SPEC 25), from interleaved pairs.

``python -m benchmarks.telemetry [--quick]`` prints one JSON object with:

- ``vs_plain_loop``: our engine with export on, against the plain-Python loop of
  ``benchmarks.hot_path`` on the same target: the SPEC 10 per-step target (≤ 2×)
  must still hold with export on;
- ``vs_export_off``: pairs (export off, export on) of our engine: what the event
  tap costs per step;
- ``flush_ms``: what each run spent after its last step sending its spans (the
  1 s flush bound), and ``spans_per_run`` / ``dropped``: what the collector got.

The collector is a loopback OTLP/HTTP server in a thread that accepts every post.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import anyio

from artemiskit import create_agent_workflow_session
from artemiskit.telemetry import Telemetry, TelemetryConfig
from benchmarks._pairs import interleave, pair_summary
from benchmarks._workload import InstantTarget, step_workflow
from benchmarks.hot_path import plain_loop

__all__ = ["LoopbackCollector", "measure_telemetry"]


class LoopbackCollector:
    """An OTLP/HTTP endpoint on 127.0.0.1 that accepts and counts every post."""

    def __init__(self) -> None:
        self.posts = 0
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", "0")))
                collector.posts += 1
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def endpoint(self) -> str:
        """The collector's base URL."""
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def close(self) -> None:
        """Stop serving."""
        self._server.shutdown()
        self._server.server_close()


async def _run(steps: int, telemetry: Telemetry | None) -> tuple[InstantTarget, Any]:
    workflow = step_workflow(steps=steps)
    target = InstantTarget(steps)
    session = create_agent_workflow_session(
        workflow=workflow, target=target, telemetry=telemetry
    )
    result = await session.run()
    if result.exit_code != 0:
        raise RuntimeError(f"the benchmark run did not pass: exit {result.exit_code}")
    return target, result


async def measure_telemetry(*, steps: int = 500, pairs: int = 5) -> dict[str, Any]:
    """Every export-on figure; see the module docstring."""
    collector = LoopbackCollector()
    telemetry = Telemetry(TelemetryConfig(otlp_endpoint=collector.endpoint))
    flush_ms: list[float] = []
    shipped: list[tuple[int, int]] = []
    try:
        await _run(steps, telemetry)  # warm-up: imports, the SDK, the encoder
        await plain_loop(steps)

        async def export_on() -> float:
            target, result = await _run(steps, telemetry)
            flush_ms.append((time.perf_counter() - target.stamps[-1]) * 1e3)
            info = result.record.telemetry
            shipped.append((info.exported, info.dropped))
            return statistics.median(target.step_seconds())

        async def export_off() -> float:
            target, _ = await _run(steps, None)
            return statistics.median(target.step_seconds())

        async def loop() -> float:
            return statistics.median((await plain_loop(steps)).step_seconds())

        loop_s, on_s = await interleave(loop, export_on, pairs=pairs)
        off_s, on_again_s = await interleave(export_off, export_on, pairs=pairs)
    finally:
        collector.close()
    return {
        "scope": "in-process, interleaved pairs; a loopback OTLP/HTTP collector",
        "steps": steps,
        "step_us": statistics.median(on_s) * 1e6,
        "plain_loop_step_us": statistics.median(loop_s) * 1e6,
        "vs_plain_loop": pair_summary(loop_s, on_s),
        "vs_export_off": pair_summary(off_s, on_again_s),
        "flush_ms": {"median": statistics.median(flush_ms), "max": max(flush_ms)},
        "spans_per_run": statistics.median(exported for exported, _ in shipped),
        "dropped": sum(dropped for _, dropped in shipped),
        "collector_posts": collector.posts,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the export-on measure and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 steps")
    parser.add_argument("--pairs", type=int, default=5)
    arguments = parser.parse_args(argv)
    steps = 100 if arguments.quick else 500
    result = anyio.run(lambda: measure_telemetry(steps=steps, pairs=arguments.pairs))
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
