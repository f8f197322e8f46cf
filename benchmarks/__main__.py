"""Entry point: ``python -m benchmarks [--quick] [--skip-sandbox] [--skip-peers]``.

``--quick`` writes to ``build/benchmarks-quick/`` (or ``--output DIR``), never to the
tracked ``docs/performance.md`` and ``benchmarks/results/latest.json``.
"""

from __future__ import annotations

from benchmarks._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
