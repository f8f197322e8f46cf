"""Entry point: ``python -m benchmarks [--quick] [--skip-sandbox] [--skip-peers]``."""

from __future__ import annotations

from benchmarks._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
