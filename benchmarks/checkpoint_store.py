"""Micro-measurement: checkpoint append cost early vs late in a run, and a commit.

Usage: ``python benchmarks/checkpoint_store.py [--entry-bytes 2048] [--samples 50]``.
Measures, on the file system holding the temporary directory (``TMPDIR``):

- ``append`` of a 2 KB entry as journal entry 10 and as entry 500 (each sample
  resets the journal with a snapshot commit, appends up to the position, then times
  the next append), which must not grow with the run;
- ``commit_snapshot`` of a 20 KB payload (temp file + fsync + rename + directory
  fsync, then a fresh journal the same way).

Prints one line per figure (median and 90th percentile in milliseconds).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import anyio

from artemiskit.checkpoints import LocalCheckpointStore


def _entry(n: int, size: int) -> dict[str, object]:
    return {"transition": n, "message": "m" * size}


def _report(label: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    print(
        f"{label:<34} median {statistics.median(ordered) * 1000:7.3f} ms"
        f"   p90 {p90 * 1000:7.3f} ms   (n={len(ordered)})"
    )


async def main(entry_bytes: int, samples: int) -> None:
    with tempfile.TemporaryDirectory() as root:
        store = LocalCheckpointStore(Path(root) / "checkpoint")
        await store.open(mode="create")
        try:
            snapshot = {"state": "s" * (20 * 1024)}
            for position in (10, 500):
                timings = []
                for _ in range(samples if position == 10 else max(samples // 5, 5)):
                    await store.commit_snapshot(snapshot)
                    for n in range(1, position):
                        await store.append(_entry(n, entry_bytes))
                    started = time.perf_counter()
                    await store.append(_entry(position, entry_bytes))
                    timings.append(time.perf_counter() - started)
                _report(f"append ({entry_bytes} B) as entry {position}", timings)
            commits = []
            for _ in range(samples):
                started = time.perf_counter()
                await store.commit_snapshot(snapshot)
                commits.append(time.perf_counter() - started)
            _report("commit_snapshot (20 KB payload)", commits)
            steady = []
            await store.commit_snapshot(snapshot)
            for n in range(1, 501):
                started = time.perf_counter()
                await store.append(_entry(n, entry_bytes))
                steady.append(time.perf_counter() - started)
            _report("append entries 1-50 of one run", steady[:50])
            _report("append entries 451-500 of one run", steady[450:])
        finally:
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entry-bytes", type=int, default=2048)
    parser.add_argument("--samples", type=int, default=50)
    arguments = parser.parse_args()
    anyio.run(main, arguments.entry_bytes, arguments.samples)
