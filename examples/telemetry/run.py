"""Run the quickstart with OpenTelemetry export (docs/telemetry.md).

With a collector at the configured endpoint (``phoenix serve`` on 127.0.0.1:6006),
the run appears there as a trace; without one, the run still passes and its record
counts the spans as dropped. Run from the repository root:

    python examples/telemetry/run.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio

from artemiskit import ArtemisKit, load_trusted_config
from artemiskit.telemetry import Telemetry

HERE = Path(__file__).parent


async def main() -> int:
    config = await load_trusted_config(HERE / "artemis.config.yaml")
    assert config.telemetry is not None
    kit = ArtemisKit(config=config)
    result = await kit.run_workflow(
        workflow=HERE.parent / "quickstart" / "workflow.yaml",
        telemetry=Telemetry(config.telemetry),
    )
    record = result.record
    assert record.telemetry is not None
    print(f"verdict exit code: {record.exit_code}")
    print(
        f"spans exported: {record.telemetry.exported}, "
        f"dropped: {record.telemetry.dropped}"
    )
    return record.exit_code


if __name__ == "__main__":
    sys.exit(anyio.run(main))
