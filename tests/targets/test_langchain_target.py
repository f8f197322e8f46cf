"""A LangChain chat model as a target, with LangChain's fake chat model (SPEC 16)."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import anyio
import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatResult

from artemiskit import ArtemisKit
from artemiskit.targets import LangChainTarget
from tests._builders import workflow_dict
from tests._runs import workflow_of

SENTINEL = "SENTINEL-langchain-7c1"


class ToolModel(GenericFakeChatModel):
    """LangChain's fake chat model, with tool binding that records what it bound."""

    bound: list[Any]
    seen: list[list[BaseMessage]]

    def bind_tools(self, tools: Any, **kwargs: Any) -> ToolModel:
        self.bound.append(tools)
        return self

    async def _agenerate(
        self, messages: list[BaseMessage], *args: Any, **kwargs: Any
    ) -> ChatResult:
        self.seen.append(list(messages))
        return self._generate(messages, *args, **kwargs)


def _workflow() -> Any:
    return workflow_of(workflow_dict(outcomes=[]))


def _read_then_answer(usage: bool = True) -> ToolModel:
    meta = {"input_tokens": 11, "output_tokens": 4, "total_tokens": 15}
    first = AIMessage(
        content="",
        tool_calls=[
            {"id": "c1", "name": "read_file", "args": {"path": "docs/policy.md"}}
        ],
        usage_metadata=meta if usage else None,
    )
    second = AIMessage(content="done", usage_metadata=meta if usage else None)
    return ToolModel(messages=iter([first, second]), bound=[], seen=[])


async def test_the_engine_runs_the_tools_a_langchain_model_asks_for(
    anyio_backend: str,
) -> None:
    model = _read_then_answer()
    result = await ArtemisKit().run_workflow(
        workflow=_workflow(), target=LangChainTarget(model)
    )
    record = result.record
    if anyio_backend == "trio":
        # LangChain's async API runs on asyncio only: refused, never half-run.
        assert record.execution.status == "unsupported"
        assert record.exit_code == 3
        assert model.seen == []
        return
    assert record.execution.status == "completed", record.execution
    assert record.budget.used.model_requests == 2
    assert record.budget.used.tool_calls == 1
    assert record.budget.used.input_tokens == 22
    assert record.budget.used.output_tokens == 8
    names = [tool["function"]["name"] for tool in model.bound[0]]
    assert "read_file" in names
    answered = [m for m in model.seen[1] if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in answered] == ["c1"]


async def test_missing_usage_stays_unmeasured(anyio_backend: str) -> None:
    result = await ArtemisKit().run_workflow(
        workflow=_workflow(), target=LangChainTarget(_read_then_answer(usage=False))
    )
    if anyio_backend == "trio":
        assert result.record.execution.status == "unsupported"
        return
    assert result.record.execution.status == "completed"
    assert result.record.budget.usage_measurement == "unavailable"


class FailingModel(ToolModel):
    async def _agenerate(
        self, messages: list[BaseMessage], *args: Any, **kwargs: Any
    ) -> ChatResult:
        raise ValueError(SENTINEL)


async def test_a_failing_model_is_a_target_failure_without_its_message(
    anyio_backend: str,
) -> None:
    model = FailingModel(messages=iter([]), bound=[], seen=[])
    result = await ArtemisKit().run_workflow(
        workflow=_workflow(), target=LangChainTarget(model)
    )
    assert SENTINEL not in repr(result.record)
    if anyio_backend == "trio":
        assert result.record.exit_code == 3
        return
    assert result.record.exit_code == 7
    assert result.record.execution.status == "runtime_failure"
    assert SENTINEL not in repr(result.record)


class HangingModel(ToolModel):
    cancelled: list[bool]

    async def _agenerate(
        self, messages: list[BaseMessage], *args: Any, **kwargs: Any
    ) -> ChatResult:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled.append(True)
            raise
        raise AssertionError("unreachable")


async def test_cancellation_reaches_the_models_call(anyio_backend: str) -> None:
    model = HangingModel(messages=iter([]), bound=[], seen=[], cancelled=[])
    session = await ArtemisKit().create_workflow_session(
        workflow=_workflow(), target=LangChainTarget(model)
    )
    async with anyio.create_task_group() as group:

        async def cancel_when_waiting() -> None:
            await anyio.wait_all_tasks_blocked()
            session.cancel()

        group.start_soon(cancel_when_waiting)
        result = await session.run()
    if anyio_backend == "trio":
        assert result.record.execution.status == "unsupported"
        assert model.cancelled == []
        return
    assert result.record.execution.status == "cancelled"
    assert model.cancelled == [True]


def test_the_repr_names_only_the_model_class() -> None:
    target = LangChainTarget(_read_then_answer())
    assert repr(target) == "LangChainTarget(model=ToolModel)"


async def test_without_langchain_the_run_is_unsupported_with_the_install_hint(
    monkeypatch: pytest.MonkeyPatch, anyio_backend: str
) -> None:
    monkeypatch.setitem(sys.modules, "langchain_core.messages", None)
    result = await ArtemisKit().run_workflow(
        workflow=_workflow(), target=LangChainTarget(_read_then_answer())
    )
    assert result.record.exit_code == 3
    expected = (
        "langchain_missing"
        if anyio_backend == "asyncio"
        else ("langchain_needs_asyncio")
    )
    assert result.record.execution.reason == expected
