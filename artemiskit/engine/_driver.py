"""`RunDriver`: one execution of a workflow, from checkpoint to record.

The driver holds the run's collaborators (the state owner, the checkpointing, the
budget, the run control, the tool-call executor) and drives them: the turn loop
inside the deadline and cancel scopes, the preflight probe, each model request,
and the finish step (release, evaluate, judge, build the record).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import anyio
import attrs

from artemiskit._common._converter import CONVERTER
from artemiskit._errors import (
    ArtemisError,
    InvalidResponseError,
    TargetError,
    WorkflowError,
)
from artemiskit.engine._budget import Budget
from artemiskit.engine._control import RunControl
from artemiskit.engine._detached import Abandoned, Detached
from artemiskit.engine._events import EventHub
from artemiskit.engine._evidence import (
    build_record,
    final_state,
    workflow_digest,
)
from artemiskit.engine._faults import schedule_from
from artemiskit.engine._judge import JudgeUsage, run_judge
from artemiskit.engine._outcomes import evaluate_outcomes, unavailable_verification
from artemiskit.engine._preflight import (
    PROBE_TOOL,
    PreflightSummary,
    new_nonce,
    probe_continuation,
    probe_opening,
    probe_problem,
)
from artemiskit.engine._recovery import checkpoints_for
from artemiskit.engine._result import WorkflowResult
from artemiskit.engine._run_evidence import RunEvidence, traced_calls
from artemiskit.engine._run_state import RunState
from artemiskit.engine._scoring import run_scorers
from artemiskit.engine._state import LocalState
from artemiskit.engine._stops import INTERRUPTED, error_stop, stop_for
from artemiskit.engine._tool_calls import ToolCallExecutor, holds_cancellation
from artemiskit.engine._tool_invocation import initial_sections
from artemiskit.engine._tool_tables import ToolTables, build_tool_tables, tool_tables
from artemiskit.environments._base import (
    CleanupReport,
    Environment,
)
from artemiskit.records._record import (
    CassetteInfo,
    CleanupInfo,
    EventInfo,
    ExecutionRecord,
    McpInfo,
)
from artemiskit.records._verification import RequirementResult, TaskVerification
from artemiskit.targets._protocol import (
    Message,
    ResumableTarget,
    TargetResponse,
    ToolDefinition,
    new_target_request,
)
from artemiskit.targets._responses import check_response, target_failure
from artemiskit.tools._catalogue import Catalogue
from artemiskit.workflow._fixture import load_fixture_state, merge_fixture
from artemiskit.workflow._model import JudgeOutcome, ScorerOutcome

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from artemiskit.engine._plan import SessionPlan
    from artemiskit.tools._mcp_tools import McpToolSet
    from artemiskit.tools._tool import Tool
    from artemiskit.workflow._model import Workflow

__all__ = ["RunDriver"]


_request = new_target_request


@attrs.frozen(kw_only=True)
class _Verdict:
    verification: TaskVerification
    judge_usage: JudgeUsage | None = None
    evaluation_cancelled: bool = False


def _initial_local_state(workflow: Workflow, catalogue: Catalogue) -> LocalState:
    """The run's detached local state as the workflow declares it (a fresh copy)."""
    state = workflow.environment.state
    return LocalState(
        documents=dict(state.documents),
        records=dict(state.records),
        sections=initial_sections(catalogue, workflow),
    )


def _check_fault_fixtures(workflow: Workflow, tools: tuple[Tool, ...]) -> None:
    """A read fixture of an MCP tool must satisfy the schema its server lists.

    Offline validation cannot know that schema, so the check happens here, before
    the checkpoint or any model request.

    Raises:
        WorkflowError: A fixture breaks it (exit 2).
    """
    by_name = {tool.name: tool for tool in tools}
    for index, fault in enumerate(workflow.faults):
        tool = by_name.get(fault.tool)
        if tool is None or fault.fixture is None:
            continue
        problem = tool.schema_problem("output", fault.fixture)
        if problem is not None:
            raise WorkflowError(
                f"$.faults[{index}].fixture: does not satisfy the output schema of "
                f"{fault.tool} (as its MCP server lists it): {problem}",
                reason="invalid_fault_fixture",
            )


class _Admitted:
    """The model request in flight, and its ``retry_admission`` callback.

    A retry (`RunDriver._readmit`) settles the attempt and admits the next one,
    which the request's settlement then names. One slotted object per request
    (a closure would keep a cell per variable alive while the target answers).
    """

    __slots__ = ("attempt", "driver", "op_id")

    def __init__(self, driver: RunDriver, op_id: str) -> None:
        self.driver = driver
        self.op_id = op_id
        self.attempt = 1

    def __call__(self, reason: str, delay_s: float) -> Awaitable[bool]:
        """``TargetRequest.retry_admission``: admit one more attempt, or refuse."""
        return self.driver._readmit(self, reason, delay_s)


class RunDriver:
    """Drives one execution; the public `WorkflowSession` is its handle."""

    def __init__(self, plan: SessionPlan) -> None:
        workflow = plan.workflow
        self.workflow = workflow
        self._plan = plan
        self._catalogue = plan.catalogue
        self._mcp = plan.mcp
        self._cassette = plan.cassette
        self._target = plan.target
        self._judge = plan.judge
        self._factory = plan.environment
        # a session closes only what its builder made for it, never the caller's
        self._owned = (
            plan.target if plan.owns_target else None,
            plan.judge.target if plan.owns_judge and plan.judge is not None else None,
        )
        self._target_label = plan.failure_label
        self._failure: str | None = None
        self._files = dict(workflow.environment.files)
        self._cleanup_timeout_ms = plan.cleanup_bound_ms
        self.run_id = uuid.uuid4().hex
        self.attempt_id = uuid.uuid4().hex
        self._digest = workflow_digest(workflow)
        self._tool_defs: tuple[ToolDefinition, ...] = ()
        tables = None
        if plan.mcp is None:
            tables = tool_tables(workflow, plan.catalogue)
            self._tool_defs = tables.definitions
        self.hub = EventHub(run_id=self.run_id)
        if plan.telemetry is not None:
            self.hub.tap(plan.telemetry.tap)
        self.run = RunState.start(
            workflow.conversation.system,
            _initial_local_state(workflow, plan.catalogue),
            schedule_from(workflow.faults),
            hub=self.hub,
            ledger_limit=plan.ledger_limit,
        )
        self.checkpoints = checkpoints_for(
            plan,
            workflow_digest=self._digest,
            scorers_digest=plan.scorers.digest(
                o.scorer for o in workflow.outcomes if isinstance(o, ScorerOutcome)
            ),
        )
        self.control = RunControl(self.run, self.checkpoints)
        self._budget = Budget(
            caps=workflow.budgets,
            max_output_tokens=workflow.target.parameters.max_output_tokens,
        )
        self._tool_calls: ToolCallExecutor | None = None
        if tables is not None:
            self._tool_calls = self._executor(plan.catalogue, tables)
        #: The result of a run its caller cancelled (``execute`` then raises).
        self.interrupted: WorkflowResult | None = None
        self._environment: Environment | None = None

    def _executor(self, catalogue: Catalogue, tables: ToolTables) -> ToolCallExecutor:
        return ToolCallExecutor(
            workflow=self.workflow,
            catalogue=catalogue,
            tables=tables,
            run=self.run,
            control=self.control,
            budget=self._budget,
            hub=self.hub,
        )

    async def _open_mcp(self, mcp: McpToolSet) -> float:
        """Start the run's MCP servers and take their declared tools in.

        The servers' tools join the catalogue before the checkpoint binding is
        made or checked, so their schema digests are part of it (a resume under
        a changed server schema is refused before any tool is called). Returns
        the seconds it took (they count against the deadline).

        Raises:
            UnsupportedError: A server cannot start, lacks a declared tool, or a
                pinned schema differs (exit 3): before any model request.
        """
        started = anyio.current_time()
        try:
            tools = await mcp.open()
        except BaseException:
            await self._close_mcp()
            raise
        try:
            _check_fault_fixtures(self.workflow, tools)
        except BaseException:
            await self._close_mcp()
            raise
        catalogue = Catalogue((*self._catalogue.values(), *tools))
        tables = build_tool_tables(self.workflow, catalogue)
        self._tool_defs = tables.definitions
        self._tool_calls = self._executor(catalogue, tables)
        self.checkpoints.use_catalogue(catalogue)
        return anyio.current_time() - started

    async def _close_mcp(self) -> None:
        """End the run's own MCP servers within the cleanup bound (shielded).

        Called outside any cancel scope entered after the servers started: their
        task group is left in the scope it was entered in.
        """
        if self._mcp is not None:
            await self._mcp.aclose()

    async def execute(self) -> WorkflowResult:
        """Run the workflow once: checkpoint, environment, turns, finish.

        A caller's cancellation drains the finish step (shielded), keeps its
        result in `interrupted`, and propagates.
        """
        if self._cassette is not None:
            # the whole cassette is read and checked before anything runs
            await self._cassette.prepare()
        await self._load_fixture()
        spent = 0.0
        if self._mcp is not None:
            spent = await self._open_mcp(self._mcp)
        try:
            resumption = await self.checkpoints.begin(
                self.run.published(), run_id=self.run_id, attempt_id=self.attempt_id
            )
            if resumption is not None and self._cassette is not None:
                # a resumed run continues its cassette after the requests made
                await self._cassette.resumed(resumption.state.counters.model_requests)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await self.checkpoints.close()
            await self._close_mcp()
            raise
        remaining = max(self.workflow.budgets.timeout_ms / 1000 - spent, 0.0)
        if resumption is not None:
            self.run_id = resumption.run_id
            self.hub.run_id = resumption.run_id
            self.run.restore(resumption.state)
            self._files = resumption.files
            remaining = resumption.remaining_s
            if isinstance(self._target, ResumableTarget):
                self._target.resume_after(self.run.state.counters.model_requests)
        started = datetime.now(UTC)
        self.hub.emit("run_started")
        self.control.start(remaining)
        self.control.wake = anyio.Event()
        turns = Detached(self._turns, self.control.wake)
        turns.start()
        try:
            await self._await_turns(turns)
        except anyio.get_cancelled_exc_class():
            self.control.cancel("caller_cancelled")
            with anyio.CancelScope(shield=True):
                await self._drain(turns)
                self.interrupted = await self._finish(self._environment, started)
            raise
        return await self._finish(self._environment, started)

    async def _turns(self) -> None:
        """Create the environment and drive every turn (in a `Detached` task).

        Runs inside the run's cancel scope and deadline scope; see
        `_await_turns` for how the caller waits for it.
        """
        with self.control.open_scope() as cancel_scope:
            with anyio.CancelScope(deadline=self.control.deadline) as deadline_scope:
                try:
                    environment = await self._factory.create(
                        run_id=self.run_id, files=self._files
                    )
                    if self.control.abandoned:  # created after the run finished
                        with anyio.move_on_after(
                            self._cleanup_timeout_ms / 1000, shield=True
                        ):
                            await environment.close()
                        raise Abandoned
                    self._environment = environment
                    self.hub.emit("environment_ready")
                    await self._drive(environment)
                except ArtemisError as exc:
                    if self._failure is None and isinstance(
                        exc, TargetError | InvalidResponseError
                    ):
                        self._failure = f"{self._target_label}: {exc.message}"
                    self.run.stop(error_stop(exc))
                except KeyboardInterrupt:
                    # the agent's or a handler's own: an interruption of this
                    # run, recorded like a cancel (never its text)
                    self.run.stop(stop_for("cancelled", INTERRUPTED))
            if deadline_scope.cancelled_caught:
                self.run.stop(stop_for("deadline_exceeded", "timeout_ms"))
        if cancel_scope.cancelled_caught:
            self.run.stop(stop_for("cancelled", self.control.cancel_reason))

    async def _await_turns(self, turns: Detached) -> None:
        """Wait for the turns to end; after a cancel or the deadline, a drain.

        The turns end by themselves, or stop soon after a cancel request or
        the deadline, since the target and the tools honour cancellation. One
        that ignores it is left behind after the drain period (`_drain`).
        """
        control = self.control
        with anyio.move_on_after(max(control.deadline - control.now(), 0)):
            await turns.wake.wait()  # the turns ended, or a cancel request
        await self._drain(turns)

    async def _drain(self, turns: Detached) -> None:
        """Wait at most the drain period for the turns; else leave them behind.

        Left behind, the operation in flight is settled ``unknown`` with
        ``target_did_not_stop`` (or ``tool_did_not_stop``) and the run stops as
        cancelled or past its deadline; the abandoned task changes nothing
        more (it raises `Abandoned` when the call returns).
        """
        if not turns.finished:
            with anyio.move_on_after(self._cleanup_timeout_ms / 1000, shield=True):
                await turns.wait_ended()
        if turns.finished:
            turns.outcome()
            return
        control = self.control
        control.abandoned = True
        self.run.settle_abandoned()
        stop = control.stop_now() or stop_for("cancelled", control.cancel_reason)
        self.run.stop(stop)

    async def _load_fixture(self) -> None:
        """Merge a referenced fixture into the initial files and state."""
        reference = self.workflow.environment.fixture
        root = self._plan.fixture_root
        if reference is None or root is None:
            return
        contents = await load_fixture_state(reference, fixture_root=root)
        spec = merge_fixture(self.workflow.environment, contents)
        self._files = dict(spec.files)
        self.run.load_fixture(spec.state.documents, spec.state.records)

    async def _drive(self, environment: Environment) -> None:
        """Take over a restored checkpoint, probe if asked, then run every turn."""
        await self.checkpoints.recovered(self.run.published())
        if self._plan.preflight != "off" and self.run.state.preflight is None:
            await self._preflight()
        if self.run.state.stop is not None:
            return
        turns = self.workflow.conversation.turns
        while self.run.state.cursor.turn < len(turns):
            cursor = self.run.state.cursor
            if not self.run.state.turn_open:
                self.run.open_turn(turns[cursor.turn].user)
                self.hub.emit("turn_started", turn=cursor.turn)
            if self.run.state.pending_calls:
                assert self._tool_calls is not None
                if not await self._tool_calls.run_pending(environment):
                    return
                continue
            if self.control.recording and not await self.control.safe_boundary():
                return
            response = await self._invoke_target(
                self.run.state.conversation, self._tool_defs, record=True
            )
            if response is None:
                return
            if not response.tool_calls:
                self.run.finish_turn()
        stop = await self.control.admission_stop()
        if stop is not None:
            self.run.stop(stop)
            return
        self.run.complete()
        self.hub.emit("execution_completed")

    async def _invoke_target(
        self,
        messages: tuple[Message, ...],
        tools: tuple[ToolDefinition, ...],
        *,
        record: bool = False,
    ) -> TargetResponse | None:
        """One admitted model request; ``None`` when a budget rule stopped the run.

        With ``record`` an answer that does not stop the run is recorded
        (`RunState.record_model_response`).
        """
        run = self.run
        control = self.control
        await control.scheduling_point()
        stop = control.stop_now() or self._budget.model_request_stop(run.state.counters)
        if stop is not None:
            run.stop(stop)
            return None
        admitted = _Admitted(self, run.admit("model_request"))
        if control.recording:
            await control.commit()
        self._announce_model_request(admitted.op_id)
        request = _request(
            messages,
            tools,
            self._budget.output_allowance(run.state.counters),
            admitted,
        )
        try:
            try:
                response = await self._target.respond(request)
            finally:
                if control.abandoned:  # the run ended without this call
                    raise Abandoned
            check_response(response)
        except (anyio.get_cancelled_exc_class(), KeyboardInterrupt):
            run.settle_unmeasured(admitted.op_id, "unknown", INTERRUPTED)
            raise
        except ArtemisError as exc:
            run.settle_unmeasured(admitted.op_id, "failed", exc.reason)
            self._failure = f"{self._target_label}: {exc.message}"
            raise
        except (Abandoned, GeneratorExit):
            raise
        except BaseException as exc:
            # an agent's SystemExit or own BaseException is its failure, not
            # the process's: the run ends with a record (never its text)
            if holds_cancellation(exc):
                raise
            run.settle_unmeasured(admitted.op_id, "failed", "target_failure")
            raise target_failure() from exc
        # without max_tokens usage never stops the run: record in the same copy
        folded = record and self.workflow.budgets.max_tokens is None
        run.settle_response(
            admitted.op_id,
            response,
            max_tokens=self.workflow.budgets.max_tokens,
            record=folded,
        )
        stop = self._budget.usage_stop(run.state.counters)
        if stop is not None and not (
            # an answer that asks for nothing is no new work: the turn it ends
            # counts (the overshoot is disclosed); a next turn is refused
            record and stop.reason == "max_tokens_overshoot" and not response.tool_calls
        ):
            run.stop(stop)
            return None
        if record and not folded:
            run.record_model_response(response)
        return response

    async def _readmit(self, admitted: _Admitted, reason: str, delay_s: float) -> bool:
        """Admit one accounted retry (SPEC 16) as a model request of its own."""
        run = self.run
        control = self.control
        if control.now() + delay_s >= control.deadline or (
            self._budget.model_request_stop(run.state.counters) is not None
        ):
            return False
        # the failure proves the request was not processed: nothing was used
        run.settle(admitted.op_id, "failed", reason)
        admitted.attempt += 1
        admitted.op_id = run.admit("model_request", attempt=admitted.attempt)
        if control.recording:
            await control.commit()
        self._announce_model_request(admitted.op_id)
        return True

    def _announce_model_request(self, op_id: str) -> None:
        """Say that a model request was admitted (and committed, when recording)."""
        cursor = self.run.state.cursor
        self.hub.emit(
            "operation_admitted",
            operation_id=op_id,
            turn=cursor.turn,
            step=cursor.step,
            status="model_request",
        )

    async def _preflight(self) -> None:
        """Run the probe once; stop the run unless it passes (or was all asked)."""
        run = self.run
        before = run.state.counters
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
                stop = await self.control.admission_stop() or (
                    self._budget.tool_call_stop(run.state.counters)
                )
                if stop is not None:
                    run.stop(stop)
                    return
                op_id = run.admit_tool_attempt(PROBE_TOOL.name, 1)
                self.hub.emit(
                    "operation_admitted", operation_id=op_id, tool=PROBE_TOOL.name
                )
                run.settle(op_id, "succeeded")
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
        after = run.state.counters
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
        run.record_preflight(summary)
        self.hub.emit("preflight_finished", status=summary.status, reason=problem)
        if problem is not None:
            self._failure = (
                f"{self._target_label}: preflight failed ({problem}): {detail}"
            )
            run.stop(stop_for("unsupported", "preflight_failed"))
        elif self._plan.preflight == "only":
            run.stop(stop_for("completed", "preflight_only"))

    async def _finish(
        self, environment: Environment | None, started: datetime
    ) -> WorkflowResult:
        """Release, evaluate, judge, build the record."""
        self.run.settle_interrupted()
        files, cleanup = await self._release(environment)
        await self._close_mcp()
        await self.checkpoints.end(
            self.run.published(), files, cleanup_complete=cleanup.status == "complete"
        )
        exported = None if files is None else final_state(files, self.run.state.local)
        verdict = await self._verify(exported)
        await self._close_targets()
        self.hub.emit("outcomes_evaluated", status=verdict.verification.status)
        self.hub.emit("run_finished")
        cassette: bytes | None = None
        recorded: CassetteInfo | None = None
        if self._cassette is not None:
            cassette, recorded = await self._cassette.finish()
        record = self._build_record(verdict, cleanup, started, recorded)
        if self._plan.telemetry is not None:
            shipped = await self._plan.telemetry.export_run(record)
            record = attrs.evolve(record, telemetry=shipped)
        return WorkflowResult(
            record=record,
            state=exported,
            transcript=self.run.state.conversation,
            failure=self._failure
            or (None if self._tool_calls is None else self._tool_calls.failure),
            cassette=cassette,
        )

    async def _release(
        self, environment: Environment | None
    ) -> tuple[dict[str, str] | None, CleanupInfo]:
        """Snapshot the environment's files and close it, bounded and shielded."""
        timeout_ms = self._cleanup_timeout_ms
        if environment is None:
            return None, CleanupInfo(
                status="not_needed", reason=None, timeout_ms=timeout_ms
            )
        files: dict[str, str] | None = None
        report = CleanupReport(
            status="unresolved", reason="cleanup_timeout", unresolved=1
        )
        with anyio.move_on_after(timeout_ms / 1000, shield=True):
            try:
                files = await environment.snapshot()
            except ArtemisError:
                files = None
            report = await environment.close()
        self.hub.emit("cleanup_finished", status=report.status, reason=report.reason)
        return files, CleanupInfo(
            status=report.status,
            reason=report.reason,
            timeout_ms=timeout_ms,
            unresolved=report.unresolved,
        )

    async def _verify(self, exported: dict[str, Any] | None) -> _Verdict:
        """Evaluate the outcomes of a completed execution, judging where declared."""
        state = self.run.state
        stop = state.stop
        outcomes = self.workflow.outcomes
        if stop is not None or not state.completed:
            reason = "execution_incomplete"
            if stop is not None and stop.reason == "preflight_only":
                reason = "preflight_only"
            elif stop is not None and stop.status == "paused":
                reason = "execution_paused"
            return _Verdict(verification=unavailable_verification(outcomes, reason))
        if exported is None:
            return _Verdict(
                verification=unavailable_verification(
                    outcomes, "final_state_unavailable"
                )
            )
        calls = traced_calls(state.trace, state.conversation)
        evidence = RunEvidence(
            final_state=exported,
            final_response=state.final_response,
            calls=calls,
            conversation=state.conversation,
        )
        decided, judge_usage, cancelled = await self._decide_outcomes(evidence)
        if cancelled:
            return _Verdict(
                verification=unavailable_verification(outcomes, "evaluation_cancelled"),
                judge_usage=judge_usage,
                evaluation_cancelled=True,
            )
        verification = evaluate_outcomes(
            outcomes,
            final_state=exported,
            trace=calls,
            final_response=state.final_response,
            trace_complete=state.ledger_omitted == 0,
            decided=decided,
        )
        return _Verdict(verification=verification, judge_usage=judge_usage)

    async def _decide_outcomes(
        self, evidence: RunEvidence
    ) -> tuple[dict[str, RequirementResult], JudgeUsage | None, bool]:
        """Run the scorers and the judge; results by id, and whether a cancel cut in."""
        outcomes = self.workflow.outcomes
        scored = [o for o in outcomes if isinstance(o, ScorerOutcome)]
        judged = [o for o in outcomes if isinstance(o, JudgeOutcome)]
        decided: dict[str, RequirementResult] = {}
        judge_usage: JudgeUsage | None = None
        if not scored and (not judged or self._judge is None):
            return decided, None, False
        with self.control.open_scope() as scope:
            if scored:
                decided.update(
                    await run_scorers(self._plan.scorers, scored, evidence=evidence)
                )
            if judged and self._judge is not None:
                results, judge_usage = await run_judge(
                    self._judge, judged, evidence=evidence
                )
                decided.update(results)
        if scope.cancelled_caught:
            return {}, judge_usage, True
        return decided, judge_usage, False

    async def _close_targets(self) -> None:
        """Close the transports the session owns (a target or judge built for it).

        A target or judge the caller passed in is the caller's to close: a
        session that closed it would break the caller's next session.
        """
        for owner in self._owned:
            aclose = getattr(owner, "aclose", None)
            if aclose is None:
                continue
            with anyio.move_on_after(self._cleanup_timeout_ms / 1000, shield=True):
                await aclose()

    def _build_record(
        self,
        verdict: _Verdict,
        cleanup: CleanupInfo,
        started: datetime,
        recorded: CassetteInfo | None = None,
    ) -> ExecutionRecord:
        return build_record(
            self._plan,
            run_id=self.run_id,
            attempt_id=self.attempt_id,
            state=self.run.state,
            verification=verdict.verification,
            cleanup=cleanup,
            judge_usage=verdict.judge_usage,
            evaluation_cancelled=verdict.evaluation_cancelled,
            recovery=self.checkpoints.info(),
            events=EventInfo(
                emitted=self.hub.emitted,
                dropped=self.hub.dropped,
                readers=self.hub.readers,
            ),
            started=started,
            finished=datetime.now(UTC),
            mcp=None
            if self._mcp is None or not self._mcp.tools
            else CONVERTER.structure(self._mcp.summary(), McpInfo),
            replay=None if self._cassette is None else self._cassette.replay_info(),
            cassette=recorded,
        )
