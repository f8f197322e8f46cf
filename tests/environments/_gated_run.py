"""A checkpointed run that stops, alive, at a boundary with no call in flight.

Usage: ``python -m tests.environments._gated_run WORKFLOW SCRIPT IMAGE DIR OP``.

The run checkpoints into ``DIR`` through a real `LocalCheckpointStore` whose
``append`` holds back one entry: the one that would admit operation ``OP``. The
boundary before it is committed (every earlier operation settled), ``OP`` is neither
durable nor invoked, and the process waits there for ever, so a test can SIGKILL it
"between operations". It prints ``run <id> started`` first and ``gated`` when it
waits; a sandbox workflow runs in image ``IMAGE``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import anyio

from artemiskit import create_agent_workflow_session
from artemiskit.checkpoints import LocalCheckpointStore
from artemiskit.environments.sandbox._environment import (
    DockerSandboxFactory,
    SandboxSettings,
)
from artemiskit.providers import ScriptedTarget, load_script
from artemiskit.workflow import load_agent_workflow


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def admits(entry: Mapping[str, Any], operation_id: str) -> bool:
    """Whether a journal entry brings ``operation_id`` into the ledger."""
    ledger = entry["delta"].get("tuples", {}).get("ledger", {})
    return any(item["id"] == operation_id for item in ledger.get("items", ()))


class GatedStore(LocalCheckpointStore):
    """A local store that never writes the entry admitting one operation."""

    def __init__(self, directory: str, *, gate: str) -> None:
        super().__init__(directory)
        self._gate = gate

    async def append(self, entry: Mapping[str, Any]) -> None:
        if admits(entry, self._gate):
            say("gated")
            await anyio.sleep_forever()
        await super().append(entry)


async def main(
    workflow_path: str, script: str, image: str, directory: str, gate: str
) -> None:
    workflow = await load_agent_workflow(workflow_path)
    factory = None
    if workflow.environment.kind == "sandbox":
        factory = DockerSandboxFactory(SandboxSettings(image=image))
    session = create_agent_workflow_session(
        workflow=workflow,
        target=ScriptedTarget(await load_script(script)),
        environment=factory,
        checkpoint_store=GatedStore(directory, gate=gate),
        # Any identity: the crash refusal comes before the configuration binding.
        configuration_id="gated-run",
    )
    say(f"run {session.run_id} started")
    await session.run()


if __name__ == "__main__":
    workflow_path, script, image, directory, gate = sys.argv[1:6]
    anyio.run(main, workflow_path, script, image, directory, gate, backend="asyncio")
