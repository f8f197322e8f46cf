"""Comparing records of a recorded run and its replay: ids and times aside."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["IGNORED", "comparable", "records_of"]

#: What may differ between a run and its replay (SPEC 26, Replay): ids, times,
#: and the part that says how it was recorded or replayed.
IGNORED = frozenset(
    {"run_id", "attempt_id", "started_at", "finished_at", "duration_ms", "replay"}
    | {"cassette"}
)


def comparable(value: Any) -> Any:
    """``value`` without the keys in `IGNORED`, at any depth."""
    if isinstance(value, dict):
        return {k: comparable(v) for k, v in value.items() if k not in IGNORED}
    if isinstance(value, list):
        return [comparable(item) for item in value]
    return value


def records_of(output: Path) -> dict[str, Any]:
    """Every record of a suite output folder, by path below ``runs/``."""
    runs = output / "runs"
    return {
        path.relative_to(runs).as_posix(): json.loads(path.read_text("utf-8"))
        for path in sorted(runs.rglob("*.record.json"))
    }
