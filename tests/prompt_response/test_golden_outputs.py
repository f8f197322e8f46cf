"""The manifest and the exports of a fixed offline run, byte for byte.

``golden/scenario.yaml`` runs against the scripted model ``golden/golden.script.yaml``
through ``akit run --export junit --export markdown``; what changes between runs
(run id, times, latencies, git, user, interpreter) is normalised, and the rest must
equal the files in ``golden/``, so that moving code around cannot change an output
CI scripts read. After a deliberate format change, regenerate them with
``ARTEMISKIT_UPDATE_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

from tests._cli import akit

GOLDEN = Path(__file__).parent / "golden"
_VOLATILE_CASE_KEYS = ("latencyMs",)
_VOLATILE_METRICS = ("median_latency_ms", "p95_latency_ms")


def _manifest(text: str) -> str:
    data: dict[str, Any] = json.loads(text)
    data |= {
        "run_id": "RUN_ID",
        "start_time": "START",
        "end_time": "END",
        "duration_ms": 0,
        "git": {"commit": "COMMIT", "branch": "BRANCH", "dirty": False},
        "provenance": {"run_by": "USER"},
        "environment": {"python_version": "PY", "platform": "OS", "arch": "ARCH"},
    }
    for key in _VOLATILE_METRICS:
        data["metrics"][key] = 0
    for case in data["cases"]:
        for key in _VOLATILE_CASE_KEYS:
            case[key] = 0
    return json.dumps(data, indent=2, ensure_ascii=False)


def _junit(text: str, run_id: str) -> str:
    text = text.replace(run_id, "RUN_ID")
    text = re.sub(r'time="[0-9.]+"', 'time="0"', text)
    return re.sub(r'timestamp="[^"]+"', 'timestamp="START"', text)


def _markdown(text: str, run_id: str) -> str:
    text = text.replace(run_id, "RUN_ID")
    text = re.sub(r"\*\*Date:\*\* \S+", "**Date:** START", text)
    text = re.sub(r"\| Duration \| [^|]+\|", "| Duration | 0ms |", text)
    text = re.sub(r"\| (Median|P95) Latency \| \d+ms \|", r"| \1 Latency | 0ms |", text)
    return re.sub(r"\| (\d+)ms \| (\d+) \|", r"| 0ms | \2 |", text)


def test_the_manifest_and_exports_of_a_fixed_run_keep_their_bytes(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    for name in ("scenario.yaml", "golden.script.yaml"):
        shutil.copy(GOLDEN / name, folder / name)
    done = akit(
        "run",
        "scenarios",
        "--export",
        "junit",
        "--export",
        "markdown",
        "--ci",
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr
    [stored] = (tmp_path / "artemis-runs" / "default").glob("*.json")
    run_id = stored.stem
    exports = tmp_path / "artemis-exports"
    produced = {
        "manifest.json": _manifest(stored.read_text("utf-8")),
        "junit.xml": _junit((exports / f"{run_id}.xml").read_text("utf-8"), run_id),
        "report.md": _markdown((exports / f"{run_id}.md").read_text("utf-8"), run_id),
        "ci.txt": done.stdout.replace(run_id, "RUN_ID"),
    }
    produced["ci.txt"] = re.sub(
        r"ARTEMISKIT_DURATION_MS=\d+", "ARTEMISKIT_DURATION_MS=0", produced["ci.txt"]
    )
    if os.environ.get("ARTEMISKIT_UPDATE_GOLDEN") == "1":
        for name, text in produced.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in produced.items():
        assert text == (GOLDEN / name).read_text("utf-8"), name
