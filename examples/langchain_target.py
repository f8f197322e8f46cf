"""Run the quickstart workflow with a LangChain chat model (``artemiskit[langchain]``).

Any LangChain chat model that supports tool binding becomes a target through
`LangChainTarget`; the engine, not LangChain, admits and runs its tool calls. This
example stays offline with LangChain's own fake chat model playing a scripted
agent; put ``ChatOpenAI(...)``, ``ChatAnthropic(...)`` or any other model in its place.

    python examples/langchain_target.py      # exits with the record's exit code
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from artemiskit import ArtemisKit
from artemiskit.targets import LangChainTarget

WORKFLOW = Path(__file__).parent / "quickstart" / "workflow.yaml"
USAGE = {"input_tokens": 40, "output_tokens": 12, "total_tokens": 52}


class ScriptedToolModel(GenericFakeChatModel):
    """LangChain's fake chat model, accepting tools as a real chat model would."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedToolModel:
        return self


def _asks(call_id: str, name: str, **args: str) -> AIMessage:
    call = {"id": call_id, "name": name, "args": args}
    return AIMessage(content="", tool_calls=[call], usage_metadata=USAGE)


async def main() -> int:
    model = ScriptedToolModel(
        messages=iter(
            [
                _asks("c1", "read_file", path="docs/refund-policy.md"),
                _asks(
                    "c2",
                    "write_file",
                    path="out/summary.md",
                    content="Refunds are accepted within 30 days of purchase.\n",
                ),
                AIMessage(
                    content="Done: the summary is in out/summary.md.",
                    usage_metadata=USAGE,
                ),
            ]
        )
    )
    result = await ArtemisKit().run_workflow(
        workflow=WORKFLOW, target=LangChainTarget(model)
    )
    record = result.record
    print(f"execution: {record.execution.status} ({record.execution.reason})")
    print(f"task verification: {record.task_verification.status}")
    print(f"exit code: {record.exit_code}")
    return record.exit_code


if __name__ == "__main__":
    sys.exit(anyio.run(main))
