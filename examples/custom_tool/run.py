"""Run examples/custom_tool/workflow.yaml with its user-defined tools, from Python."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the repository root

from artemiskit import ArtemisKit  # noqa: E402
from examples.custom_tool.order_tools import TOOLS  # noqa: E402


async def main() -> int:
    kit = ArtemisKit(tools=TOOLS)
    result = await kit.run_workflow(workflow=HERE / "workflow.yaml")
    assert result.state is not None
    print("refunds:", len(result.state["tools"]["file_refund"]["refunds"]))
    print("exit code:", result.record.exit_code)
    return result.record.exit_code


if __name__ == "__main__":
    sys.exit(anyio.run(main))
