"""Run the quickstart workflow with your own agent: a custom `AgentTarget`.

The engine calls ``respond()`` once per model invocation with the conversation so
far, the declared tools and the remaining output allowance; it admits every tool
call the agent returns (declared → input schema → allow) before anything runs.

This agent is offline and deterministic: it reads the file the user names, writes
its first sentence to the file the user asks for, then answers.

    python examples/sdk_custom_target.py      # exits with the record's exit code
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import anyio

from artemiskit import ArtemisKit, TargetRequest, TargetResponse, ToolCall, Usage

WORKFLOW = Path(__file__).parent / "quickstart" / "workflow.yaml"


class FirstSentenceAgent:
    """Reads the named file, writes its first sentence to the named output."""

    async def respond(self, request: TargetRequest) -> TargetResponse:
        usage = Usage(input_tokens=100, output_tokens=20)  # as a provider reports it
        task = next(m.content or "" for m in request.messages if m.role == "user")
        source, target = re.findall(r"[\w./-]+\.md", task)[:2]
        last = request.messages[-1]
        if last.role == "user":
            return TargetResponse(
                tool_calls=(_call("read-1", "read_file", path=source),), usage=usage
            )
        if last.tool_call_id == "read-1" and not last.is_error:
            content = json.loads(last.content or "{}")["content"]
            sentence = next(
                line for line in content.splitlines() if line and line[0] != "#"
            )
            return TargetResponse(
                tool_calls=(
                    _call("write-1", "write_file", path=target, content=sentence),
                ),
                usage=usage,
            )
        return TargetResponse(text=f"Done: the summary is in {target}.", usage=usage)


def _call(call_id: str, name: str, **arguments: str) -> ToolCall:
    return ToolCall(id=call_id, name=name, arguments=json.dumps(arguments))


async def main() -> int:
    result = await ArtemisKit().run_workflow(
        workflow=WORKFLOW, target=FirstSentenceAgent()
    )
    record = result.record
    print(f"execution: {record.execution.status} ({record.execution.reason})")
    print(f"task verification: {record.task_verification.status}")
    for requirement in record.task_verification.requirements:
        print(f"  {requirement.id}: {requirement.status} ({requirement.reason})")
    print(f"exit code: {record.exit_code}")
    return record.exit_code


if __name__ == "__main__":
    sys.exit(anyio.run(main))
