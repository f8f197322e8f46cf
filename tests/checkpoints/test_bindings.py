"""What a checkpoint is bound to: refusals before any model call.

The SDK tests run in this process on asyncio and trio, with real checkpoint
directories; targets and environment factories count their calls so a test can
prove that a refusal came before anything could have an effect. The judge crash
test kills a real `akit` process with SIGKILL.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Mapping
from pathlib import Path

import attrs
import pytest

from artemiskit import (
    ArtemisKit,
    CheckpointError,
    CheckpointOptions,
    SessionStateError,
    TargetRequest,
    TargetResponse,
    UnsupportedError,
    create_agent_workflow_session,
    load_agent_workflow,
)
from artemiskit.checkpoints import LocalCheckpointStore
from artemiskit.environments._simulated import SimulatedFactory
from artemiskit.targets import ModelRequest
from tests._builders import PASSING_SCRIPT, USAGE, workflow_dict, write_workflow
from tests.providers._chat_server import ChatServer, NeverAnswer

from ._processes import Case, fingerprint
from .test_resume import assert_refused

JUDGED = workflow_dict(
    outcomes=[
        {"id": "summary", "file": "out/summary.md", "contains": ["30 days"]},
        {"id": "tone", "judge": {"rubric": "Neutral and accurate.", "threshold": 0.7}},
    ]
)


@attrs.define
class RefusingTarget:
    """A custom target that must never be called."""

    calls: int = 0

    async def respond(self, request: TargetRequest) -> TargetResponse:
        self.calls += 1
        raise AssertionError("the target was called")


@attrs.define
class RefusingClient:
    """A custom model client that must never be called."""

    calls: int = 0

    async def complete(self, request: ModelRequest) -> TargetResponse:
        self.calls += 1
        raise AssertionError("the client was called")


@pytest.mark.parametrize("own", ["client", "target"])
async def test_own_client_or_target_needs_an_explicit_configuration_id(
    tmp_path: Path, own: str
) -> None:
    path = write_workflow(tmp_path, workflow_dict(), PASSING_SCRIPT)
    custom = RefusingClient() if own == "client" else RefusingTarget()
    checkpoint = tmp_path / "ckpt"
    with pytest.raises(SessionStateError) as info:
        await ArtemisKit().run_workflow(
            workflow=path,
            checkpoint=CheckpointOptions(directory=checkpoint),
            pause_after_actions=2,
            **{own: custom},  # type: ignore[arg-type]
        )
    assert info.value.reason == "configuration_id_required"
    assert info.value.exit_code == 2
    assert "configuration_id" in str(info.value)
    assert custom.calls == 0
    assert not checkpoint.exists()


async def test_low_level_checkpointing_needs_an_explicit_configuration_id(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path, workflow_dict(), PASSING_SCRIPT)
    target = RefusingTarget()
    checkpoint = tmp_path / "ckpt"
    with pytest.raises(SessionStateError) as info:
        create_agent_workflow_session(
            workflow=await load_agent_workflow(path),
            target=target,
            checkpoint_store=LocalCheckpointStore(checkpoint),
        )
    assert info.value.reason == "configuration_id_required"
    assert target.calls == 0
    assert not checkpoint.exists()


@attrs.define
class UndeclaredFactory:
    """A custom environment factory that does not declare checkpoint support.

    Its environments can snapshot and restore (they are simulated ones), which
    does not by itself make them checkpointable.
    """

    created: int = 0
    inner: SimulatedFactory = attrs.Factory(SimulatedFactory)

    @property
    def kind(self) -> str:
        return "custom"

    @property
    def default_cleanup_timeout_ms(self) -> int:
        return 1000

    async def create(self, *, run_id: str, files: Mapping[str, str]) -> object:
        self.created += 1
        return await self.inner.create(run_id=run_id, files=files)


@attrs.define
class DeclinedFactory(UndeclaredFactory):
    """A custom factory that declares, explicitly, no checkpoint support."""

    @property
    def supports_checkpoint(self) -> bool:
        return False


@pytest.mark.parametrize("factory_class", [UndeclaredFactory, DeclinedFactory])
async def test_custom_environment_without_the_capability_is_refused(
    tmp_path: Path, factory_class: type[UndeclaredFactory]
) -> None:
    path = write_workflow(tmp_path, workflow_dict(), PASSING_SCRIPT)
    factory = factory_class()
    target = RefusingTarget()
    checkpoint = tmp_path / "ckpt"
    with pytest.raises(UnsupportedError) as info:
        await ArtemisKit().run_workflow(
            workflow=path,
            target=target,
            environment=factory,  # type: ignore[arg-type]
            checkpoint=CheckpointOptions(
                directory=checkpoint, configuration_id="custom-v1"
            ),
        )
    assert info.value.reason == "environment_not_checkpointable"
    assert info.value.exit_code == 3
    assert (target.calls, factory.created) == (0, 0)
    assert not checkpoint.exists()


def write_judge(folder: Path, name: str, **limits: int) -> Path:
    """A scripted judge configuration ``name.yaml`` that scores 0.9."""
    config = folder / f"{name}.yaml"
    config.write_text(
        json.dumps({"provider": "scripted", "model": "judge", **limits}),
        encoding="utf-8",
    )
    script = {"version": 1, "responses": [{"score": 0.9, "usage": USAGE}]}
    (folder / "judge.script.yaml").write_text(json.dumps(script), encoding="utf-8")
    return config


async def test_judge_configuration_is_bound_into_the_checkpoint(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path, JUDGED, PASSING_SCRIPT)
    judge = write_judge(tmp_path, "judge")
    other_judge = write_judge(tmp_path, "other-judge", max_requests=2)
    checkpoint = tmp_path / "ckpt"
    kit = ArtemisKit()
    first = await kit.run_workflow(
        workflow=path,
        judge=judge,
        checkpoint=CheckpointOptions(directory=checkpoint),
        pause_after_actions=2,
    )
    assert first.exit_code == 10
    resume = CheckpointOptions(directory=checkpoint, mode="resume")
    for different in (other_judge, None):
        with pytest.raises(CheckpointError) as info:
            await kit.run_workflow(workflow=path, judge=different, checkpoint=resume)
        assert info.value.reason == "incompatible_checkpoint"
        assert "configuration_id" in str(info.value)
    resumed = await kit.run_workflow(workflow=path, judge=judge, checkpoint=resume)
    assert resumed.exit_code == 0
    assert resumed.record.task_verification.status == "passed"


def test_sigkill_during_a_slow_judge_leaves_a_terminal_checkpoint(
    tmp_path: Path,
) -> None:
    """Outcomes are evaluated only after the terminal checkpoint is committed.

    The judge is a real HTTP server on 127.0.0.1 that holds its request; once it
    has the request, the run is killed. Had the checkpoint not been terminal yet,
    resume would see a crashed attempt instead.
    """
    case = Case(tmp_path / "case", JUDGED, PASSING_SCRIPT)
    with ChatServer() as server:
        server.enqueue(NeverAnswer())
        judge = case.folder / "judge.yaml"
        slow = {
            "type": "openai",
            "base_url": server.url,
            "api_key": "k",
            "request_timeout_ms": 600_000,
        }
        judge.write_text(
            json.dumps(
                {
                    "provider": "slow",
                    "model": "judge",
                    "timeout_ms": 600_000,
                    "providers": {"slow": slow},
                }
            ),
            encoding="utf-8",
        )
        checkpoint = ("--checkpoint-dir", str(case.checkpoint))
        running = case.start("run", *checkpoint, "--judge-config", str(judge))
        try:
            assert server.wait_for_hanging(1), "the judge request never arrived"
        finally:
            running.process.send_signal(signal.SIGKILL)
        assert running.finish().code == -signal.SIGKILL
        before = fingerprint(case.checkpoint)
        done, record = case.resume("--judge-config", str(judge))
        assert len(server.requests) == 1  # the refused resume called nobody
    assert_refused(done, "terminal_checkpoint")
    assert record is None
    assert fingerprint(case.checkpoint) == before


def test_cli_resume_under_another_judge_configuration_is_refused(
    tmp_path: Path,
) -> None:
    case = Case(tmp_path / "case", JUDGED, PASSING_SCRIPT)
    judge = write_judge(case.folder, "judge")
    other_judge = write_judge(case.folder, "other-judge", timeout_ms=20_000)
    done, _ = case.run("--judge-config", str(judge), pause_after=2)
    assert done.code == 10, done.describe()
    before = fingerprint(case.checkpoint)
    for different in (("--judge-config", str(other_judge)), ()):
        done, record = case.resume(*different)
        assert_refused(done, "incompatible_checkpoint")
        assert "configuration_id" in done.stderr
        assert record is None
    assert fingerprint(case.checkpoint) == before
    done, record = case.resume("--judge-config", str(judge))
    assert done.code == 0, done.describe()
    assert record["judge"]["requests"] == 1
