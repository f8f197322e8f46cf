"""`WorkflowSession`: the one native engine the CLI and the SDK share.

A session runs its workflow once. It creates a fresh environment, drives the target
turn by turn, admits every tool call (declared → input schema → allow) before it
runs, counts every action against the budgets, and finishes with bounded cleanup,
outcome evaluation and a metadata-only record.
"""

from __future__ import annotations

import math
import uuid
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import anyio
import attrs

from artemiskit._errors import (
    ArtemisError,
    InvalidResponseError,
    SessionStateError,
    TargetError,
)
from artemiskit.engine import _transitions as t
from artemiskit.engine._budget import (
    model_request_stop,
    output_allowance,
    tool_call_stop,
    usage_stop,
)
from artemiskit.engine._events import EventHub, SessionEvent
from artemiskit.engine._evidence import build_record, final_state, workflow_digest
from artemiskit.engine._faults import schedule_from
from artemiskit.engine._judge import JudgeSettings, JudgeUsage, run_judge
from artemiskit.engine._outcomes import (
    TaskVerification,
    evaluate_outcomes,
    unavailable_verification,
)
from artemiskit.engine._preflight import (
    PROBE_TOOL,
    PreflightMode,
    PreflightSummary,
    new_nonce,
    probe_continuation,
    probe_opening,
    probe_problem,
)
from artemiskit.engine._recovery import CheckpointMode, RecoveryMixin
from artemiskit.engine._responses import check_response, target_failure
from artemiskit.engine._state import (
    LocalState,
    OperationStatus,
    SessionState,
    Stop,
)
from artemiskit.engine._tool_calls import ToolCallRunner
from artemiskit.environments._base import CleanupReport, Environment, EnvironmentFactory
from artemiskit.records._record import (
    CleanupInfo,
    EventInfo,
    ExecutionRecord,
    TargetInfo,
)
from artemiskit.targets._protocol import (
    AgentTarget,
    Message,
    TargetRequest,
    TargetResponse,
    ToolDefinition,
)
from artemiskit.targets._scripted import ScriptedTarget
from artemiskit.tools._catalogue import BUILTIN_CATALOGUE, Catalogue
from artemiskit.workflow import load_fixture_state, merge_fixture
from artemiskit.workflow._model import JudgeOutcome

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Mapping

    from artemiskit.checkpoints._store import CheckpointStore
    from artemiskit.workflow._model import Workflow

__all__ = ["MAX_CLEANUP_TIMEOUT_MS", "WorkflowResult", "WorkflowSession"]

MAX_CLEANUP_TIMEOUT_MS = 10_000


@attrs.frozen(kw_only=True, repr=False)
class WorkflowResult:
    """What a run leaves.

    Attributes:
        record: The bounded, metadata-only execution record. Safe to keep.
        state: The final state (SPEC 3.1 layout), or ``None`` when no snapshot could
            be taken. Sensitive working data: never persisted by the SDK.
        transcript: Every conversation message. Sensitive working data.
        failure: What stopped the run, for people: the message of the error or the
            failed preflight probe, naming the target (provider entry and host),
            never a credential or content; ``None`` when nothing failed.
    """

    record: ExecutionRecord
    state: dict[str, Any] | None
    transcript: tuple[Message, ...]
    failure: str | None = attrs.field(default=None, repr=False)

    @property
    def exit_code(self) -> int:
        """The SPEC 9 exit code of this run."""
        return self.record.exit_code

    def __repr__(self) -> str:
        """Identities and statuses only: never the state or the transcript."""
        record = self.record
        return (
            f"WorkflowResult(run_id={record.run_id!r}, "
            f"attempt_id={record.attempt_id!r}, "
            f"status={record.execution.status!r}, "
            f"reason={record.execution.reason!r}, exit_code={record.exit_code}, "
            f"task_verification={record.task_verification.status!r})"
        )


def _stop_for(exc: ArtemisError) -> Stop:
    status = {
        3: "unsupported",
        4: "policy_denied",
        5: "budget_exhausted",
        6: "deadline_exceeded",
        130: "cancelled",
    }.get(exc.exit_code, "runtime_failure")
    return Stop(status=status, reason=exc.reason, exit_code=exc.exit_code)  # type: ignore[arg-type]


class WorkflowSession(RecoveryMixin, ToolCallRunner):
    """One execution of a workflow against a target in a fresh environment.

    Create it with `create_agent_workflow_session` or
    `ArtemisKit.create_workflow_session`. ``run()`` executes once: repeated and
    concurrent calls share the execution and return the same result.
    """

    def __init__(
        self,
        *,
        workflow: Workflow,
        target: AgentTarget,
        environment: EnvironmentFactory,
        files: Mapping[str, str],
        local: LocalState,
        target_info: TargetInfo,
        cleanup_timeout_ms: int | None = None,
        fixture_root: str | None = None,
        preflight: PreflightMode = "off",
        judge: JudgeSettings | None = None,
        checkpoint_store: CheckpointStore | None = None,
        checkpoint_mode: CheckpointMode = "create",
        configuration_id: str | None = None,
        pause_after_actions: int | None = None,
        target_label: str | None = None,
        ledger_limit: int = t.MAX_LEDGER,
        catalogue: Catalogue = BUILTIN_CATALOGUE,
    ) -> None:
        self._workflow = workflow
        self._catalogue = catalogue
        self._target_label = target_label or (
            f"provider {target_info.provider!r}, model {target_info.model!r}"
        )
        self._failure: str | None = None
        self._preflight_mode = preflight
        self._judge = judge
        self._fixture_root = fixture_root
        self._target = target
        self._factory = environment
        self._files = dict(files)
        self._target_info = target_info
        timeout = cleanup_timeout_ms or environment.default_cleanup_timeout_ms
        self._cleanup_timeout_ms = min(timeout, MAX_CLEANUP_TIMEOUT_MS)
        self.run_id = uuid.uuid4().hex
        self.attempt_id = uuid.uuid4().hex
        self._digest = workflow_digest(workflow)
        self._declared = {tool.name: tool for tool in workflow.tools}
        self._tool_defs = tuple(
            ToolDefinition(
                name=tool.name,
                description=catalogue[tool.name].description,
                input_schema=catalogue[tool.name].input_schema,
            )
            for tool in workflow.tools
        )
        self._state = t.start(
            workflow.conversation.system, local, schedule_from(workflow.faults)
        )
        self._hub = EventHub(run_id=self.run_id)
        self._started = False
        self._done: anyio.Event | None = None
        self._result: WorkflowResult | None = None
        self._cancel_scope: anyio.CancelScope | None = None
        self._cancel_requested = False
        self._deadline = math.inf
        self._ledger_limit = ledger_limit
        self._init_recovery(
            store=checkpoint_store,
            mode=checkpoint_mode,
            configuration_id=configuration_id,
            pause_after_actions=pause_after_actions,
        )

    def __repr__(self) -> str:
        """Identities and status only: never the conversation or the state."""
        if self._result is not None:
            status = self._result.record.execution.status
        else:
            status = "running" if self._started else "not_started"
        return (
            f"WorkflowSession(run_id={self.run_id!r}, "
            f"attempt_id={self.attempt_id!r}, workflow={self._workflow.name!r}, "
            f"status={status!r})"
        )

    @property
    def state(self) -> SessionState:
        """The current session state (sensitive: holds the conversation)."""
        return self._state

    @property
    def result(self) -> WorkflowResult | None:
        """The result once the execution finished, else ``None``."""
        return self._result

    def events(self, *, buffer: int = 1024) -> AsyncIterator[SessionEvent]:
        """A new reader of this session's metadata events.

        Each reader gets every event emitted after this call, in its own bounded
        buffer; a reader too slow to keep up loses events (counted in the
        record's ``events.dropped``) but never slows the engine. Iteration ends
        when the session finishes.

        Args:
            buffer: How many events this reader may fall behind before events
                are dropped for it.
        """
        if buffer < 1:
            raise SessionStateError(
                "buffer must be at least 1", reason="invalid_option"
            )
        return self._hub.subscribe(buffer)

    def cancel(self) -> None:
        """Stop new work; the run drains cleanup and records ``cancelled``.

        Cancellation is not rollback: effects already made stay made.
        """
        self._cancel_requested = True
        if self._cancel_scope is not None:
            self._cancel_scope.cancel()

    async def pause(self) -> None:
        """Pause at the next safe boundary and wait until the pause is confirmed.

        An operation in progress settles first; the environment's files are saved
        into the checkpoint and its cleanup is confirmed before the checkpoint is
        marked resumable. The run's result (``execution.status: paused``, exit 10)
        says whether it is.

        Raises:
            SessionStateError: This session has no checkpoint store, so there is
                nowhere to pause into.
        """
        if not self.checkpointing:
            raise SessionStateError(
                "pause needs a checkpoint store: create the session with a "
                "checkpoint option to make it pausable",
                reason="no_checkpoint_store",
            )
        self._pause_requested = True
        if self._done is not None:
            await self._done.wait()

    async def run(self) -> WorkflowResult:
        """Execute the workflow once and return its result.

        Concurrent and repeated calls share the same execution. Cancelling the
        caller cancels the execution like `cancel()`: cleanup drains, the
        interrupted result becomes available as `result`, and the cancellation
        propagates.
        """
        if self._started:
            if self._result is None:
                assert self._done is not None
                await self._done.wait()
            assert self._result is not None
            return self._result
        self._started = True
        self._done = anyio.Event()
        try:
            self._result = await self._execute()
        finally:
            self._hub.close()
            self._done.set()
        return self._result

    def _set(self, state: SessionState) -> None:
        self._state = state

    def _stop(self, stop: Stop) -> None:
        self._set(t.stop(self._state, stop))
        self._hub.emit("execution_stopped", status=stop.status, reason=stop.reason)

    async def _load_fixture(self) -> None:
        """Merge a referenced fixture into the initial files and state."""
        reference = self._workflow.environment.fixture
        if reference is None or self._fixture_root is None:
            return
        contents = await load_fixture_state(reference, fixture_root=self._fixture_root)
        spec = merge_fixture(self._workflow.environment, contents)
        self._files = dict(spec.files)
        self._set(
            attrs.evolve(
                self._state,
                local=attrs.evolve(
                    self._state.local,
                    documents=dict(spec.state.documents),
                    records=dict(spec.state.records),
                ),
            )
        )

    async def _close_targets(self) -> None:
        """Close transports the session owns (the target's, the judge's)."""
        owners = [self._target, None if self._judge is None else self._judge.target]
        for owner in owners:
            aclose = getattr(owner, "aclose", None)
            if aclose is None:
                continue
            with (
                anyio.CancelScope(shield=True),
                anyio.move_on_after(self._cleanup_timeout_ms / 1000),
            ):
                await aclose()

    async def _execute(self) -> WorkflowResult:
        await self._load_fixture()
        try:
            remaining = await self._begin_checkpoint()
        except ArtemisError:
            if self._checkpointer is not None:
                with anyio.CancelScope(shield=True):
                    await self._checkpointer.close()
            raise
        if remaining is not None and isinstance(self._target, ScriptedTarget):
            self._target.position = self._state.counters.model_requests
        started = datetime.now(UTC)
        self._hub.emit("run_started")
        if remaining is None:
            remaining = self._workflow.budgets.timeout_ms / 1000
        deadline = anyio.current_time() + remaining
        self._deadline = deadline
        environment: Environment | None = None
        try:
            with anyio.CancelScope() as self._cancel_scope:
                if self._cancel_requested:
                    self._cancel_scope.cancel()
                with anyio.CancelScope(deadline=deadline) as deadline_scope:
                    try:
                        environment = await self._factory.create(
                            run_id=self.run_id, files=self._files
                        )
                        self._hub.emit("environment_ready")
                        await self._recovered()
                        if (
                            self._preflight_mode != "off"
                            and self._state.preflight is None
                        ):
                            await self._preflight()
                        if self._state.stop is None:
                            await self._drive(environment)
                    except ArtemisError as exc:
                        if isinstance(exc, TargetError | InvalidResponseError):
                            self._failure = f"{self._target_label}: {exc.message}"
                        self._stop(_stop_for(exc))
                if deadline_scope.cancelled_caught:
                    self._stop(
                        Stop(
                            status="deadline_exceeded",
                            reason="timeout_ms",
                            exit_code=6,
                        )
                    )
            if self._cancel_scope.cancelled_caught:
                self._stop(Stop(status="cancelled", reason="cancelled", exit_code=130))
        except anyio.get_cancelled_exc_class():
            self._stop(
                Stop(status="cancelled", reason="caller_cancelled", exit_code=130)
            )
            with anyio.CancelScope(shield=True):
                self._result = await self._finish(environment, started)
            raise
        return await self._finish(environment, started)

    async def _finish(
        self, environment: Environment | None, started: datetime
    ) -> WorkflowResult:
        for op in self._state.ledger:
            if op.status == "admitted":
                self._set(
                    t.settle_operation(self._state, op.id, "unknown", "interrupted")
                )
        files, cleanup = await self._release(environment)
        try:
            await self._end_checkpoint(files, cleanup.status == "complete")
        except ArtemisError:
            self._checkpoint_status = "not_resumable"

        state = self._state
        stop = state.stop
        exported = None if files is None else final_state(files, state.local)
        verification: TaskVerification
        judge_usage: JudgeUsage | None = None
        evaluation_cancelled = False
        if stop is not None or not state.completed:
            reason = "execution_incomplete"
            if stop is not None and stop.reason == "preflight_only":
                reason = "preflight_only"
            elif stop is not None and stop.status == "paused":
                reason = "execution_paused"
            verification = unavailable_verification(self._workflow.outcomes, reason)
        elif exported is None:
            verification = unavailable_verification(
                self._workflow.outcomes, "final_state_unavailable"
            )
        else:
            judged: dict[str, Any] | None = None
            judge_outcomes = [
                o for o in self._workflow.outcomes if isinstance(o, JudgeOutcome)
            ]
            if judge_outcomes and self._judge is not None:
                with anyio.CancelScope() as self._cancel_scope:
                    if self._cancel_requested:
                        self._cancel_scope.cancel()
                    judged, judge_usage = await run_judge(
                        self._judge,
                        judge_outcomes,
                        final_response=state.final_response,
                        files=exported["files"],
                    )
                if self._cancel_scope.cancelled_caught:
                    evaluation_cancelled = True
                    judged = None
            if evaluation_cancelled:
                verification = unavailable_verification(
                    self._workflow.outcomes, "evaluation_cancelled"
                )
            else:
                verification = evaluate_outcomes(
                    self._workflow.outcomes,
                    final_state=exported,
                    trace=state.trace,
                    final_response=state.final_response,
                    trace_complete=state.ledger_omitted == 0,
                    judged=judged,
                )
        await self._close_targets()
        self._hub.emit("outcomes_evaluated", status=verification.status)
        self._hub.emit("run_finished")
        record = build_record(
            workflow=self._workflow,
            digest=self._digest,
            run_id=self.run_id,
            attempt_id=self.attempt_id,
            target=self._target_info,
            environment_kind=self._workflow.environment.kind,
            state=state,
            stop=stop,
            verification=verification,
            cleanup=cleanup,
            preflight_mode=self._preflight_mode,
            judge=self._judge,
            judge_usage=judge_usage,
            evaluation_cancelled=evaluation_cancelled,
            recovery=self._recovery_info(),
            events=EventInfo(
                emitted=self._hub.emitted,
                dropped=self._hub.dropped,
                readers=self._hub.readers,
            ),
            started=started,
            finished=datetime.now(UTC),
        )
        self._hub.close()
        return WorkflowResult(
            record=record,
            state=exported,
            transcript=state.conversation,
            failure=self._failure,
        )

    async def _release(
        self, environment: Environment | None
    ) -> tuple[dict[str, str] | None, CleanupInfo]:
        timeout_ms = self._cleanup_timeout_ms
        if environment is None:
            return None, CleanupInfo(
                status="not_needed", reason=None, timeout_ms=timeout_ms
            )
        files: dict[str, str] | None = None
        report = CleanupReport(
            status="unresolved", reason="cleanup_timeout", unresolved=1
        )
        with anyio.CancelScope(shield=True), anyio.move_on_after(timeout_ms / 1000):
            try:
                files = await environment.snapshot()
            except ArtemisError:
                files = None
            report = await environment.close()
        self._hub.emit("cleanup_finished", status=report.status, reason=report.reason)
        return files, CleanupInfo(
            status=report.status,
            reason=report.reason,
            timeout_ms=timeout_ms,
            unresolved=report.unresolved,
        )

    async def _drive(self, environment: Environment) -> None:
        turns = self._workflow.conversation.turns
        while self._state.cursor.turn < len(turns):
            cursor = self._state.cursor
            if not self._state.turn_open:
                self._set(t.open_turn(self._state, turns[cursor.turn].user))
                self._hub.emit("turn_started", turn=cursor.turn)
            if self._state.pending_calls:
                if not await self._run_tool_calls(environment):
                    return
                continue
            if not await self._safe_boundary():
                return
            response = await self._request_model()
            if response is None:
                return
            if not response.tool_calls:
                self._set(t.finish_turn(self._state))
        stop = await self._admission_stop()
        if stop is not None:
            self._stop(stop)
            return
        self._set(t.complete(self._state))
        self._hub.emit("execution_completed")

    async def _invoke_target(
        self, messages: tuple[Message, ...], tools: tuple[ToolDefinition, ...]
    ) -> TargetResponse | None:
        """One admitted model request; ``None`` when a budget rule stopped the run."""
        budgets = self._workflow.budgets
        stop = await self._admission_stop() or model_request_stop(
            self._state.counters, budgets
        )
        if stop is not None:
            self._stop(stop)
            return None
        allowance = output_allowance(
            self._state.counters,
            budgets,
            self._workflow.target.parameters.max_output_tokens,
        )
        request = TargetRequest(
            messages=messages, tools=tools, max_output_tokens=allowance
        )
        state, op_id = t.admit_operation(
            self._state, kind="model_request", ledger_limit=self._ledger_limit
        )
        self._set(state)
        await self._commit()
        cursor = state.cursor
        self._hub.emit(
            "operation_admitted",
            operation_id=op_id,
            turn=cursor.turn,
            step=cursor.step,
            status="model_request",
        )
        try:
            response = await self._target.respond(request)
            check_response(response)
        except anyio.get_cancelled_exc_class():
            self._settle_unmeasured(op_id, "unknown", "interrupted")
            raise
        except ArtemisError as exc:
            self._settle_unmeasured(op_id, "failed", exc.reason)
            raise
        except Exception as exc:
            self._settle_unmeasured(op_id, "failed", "target_failure")
            raise target_failure() from exc
        self._settle(op_id, "succeeded")
        self._set(t.account_usage(self._state, response, max_tokens=budgets.max_tokens))
        stop = usage_stop(self._state.counters, budgets)
        if stop is not None:
            self._stop(stop)
            return None
        return response

    def _settle_unmeasured(
        self, op_id: str, status: OperationStatus, reason: str
    ) -> None:
        """Settle a request without a valid response: its usage is unknown."""
        self._set(t.count_unmeasured(self._state))
        self._settle(op_id, status, reason)

    async def _admission_stop(self) -> Stop | None:
        """Why nothing new may be admitted now: a cancel request or the deadline.

        The scheduling point lets a pending cancellation in; the explicit checks
        hold even when a target never yields or shields itself from cancellation.
        """
        await anyio.lowlevel.checkpoint()
        if self._cancel_requested:
            return Stop(status="cancelled", reason="cancelled", exit_code=130)
        if anyio.current_time() >= self._deadline:
            return Stop(status="deadline_exceeded", reason="timeout_ms", exit_code=6)
        return None

    async def _safe_boundary(self) -> bool:
        """Commit the state; False when the run pauses here."""
        pause = self._pause_due()
        if pause is not None:
            self._stop(pause)
            return False
        await self._commit()
        return True

    async def _request_model(self) -> TargetResponse | None:
        response = await self._invoke_target(self._state.conversation, self._tool_defs)
        if response is not None:
            self._set(t.record_model_response(self._state, response))
        return response

    async def _preflight(self) -> None:
        """Run the probe once; stop the run unless it passes (or was all asked)."""
        before = self._state.counters
        nonce = new_nonce()
        opening = probe_opening(nonce)
        problem: str | None = None
        detail = "the target did not complete the probe's tool round trip"
        try:
            first = await self._invoke_target(opening, (PROBE_TOOL,))
            if first is None:
                return
            problem = probe_problem(first, nonce)
            if problem is None:
                stop = await self._admission_stop() or tool_call_stop(
                    self._state.counters, self._workflow.budgets
                )
                if stop is not None:
                    self._stop(stop)
                    return
                self._set(t.count_tool_attempt(self._state))
                state, op_id = t.admit_operation(
                    self._state,
                    kind="tool_call",
                    tool=PROBE_TOOL.name,
                    ledger_limit=self._ledger_limit,
                )
                self._set(state)
                self._settle(op_id, "succeeded")
                second = await self._invoke_target(
                    probe_continuation(opening, first, nonce), (PROBE_TOOL,)
                )
                if second is None:
                    return
                if second.tool_calls or not second.text:
                    problem = "no_continuation"
        except (TargetError, InvalidResponseError) as exc:
            problem = exc.reason
            detail = exc.message
        after = self._state.counters
        summary = PreflightSummary(
            status="failed" if problem else "passed",
            reason=problem or "tool_round_trip_completed",
            model_requests=after.model_requests - before.model_requests,
            tool_calls=after.tool_calls - before.tool_calls,
            input_tokens=after.measured_input_tokens - before.measured_input_tokens,
            output_tokens=after.measured_output_tokens - before.measured_output_tokens,
            unmeasured_responses=after.unmeasured_responses
            - before.unmeasured_responses,
        )
        self._set(t.record_preflight(self._state, summary))
        self._hub.emit("preflight_finished", status=summary.status, reason=problem)
        if problem is not None:
            self._failure = (
                f"{self._target_label}: preflight failed ({problem}): {detail}"
            )
            self._stop(
                Stop(status="unsupported", reason="preflight_failed", exit_code=3)
            )
        elif self._preflight_mode == "only":
            self._stop(Stop(status="completed", reason="preflight_only", exit_code=0))

    def _settle(
        self, op_id: str, status: OperationStatus, reason: str | None = None
    ) -> None:
        self._set(t.settle_operation(self._state, op_id, status, reason))
        self._hub.emit(
            "operation_settled", operation_id=op_id, status=status, reason=reason
        )
