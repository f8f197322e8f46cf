"""A run's checkpointing, behind one collaborator: begin, commit, pause, end.

`checkpoints_for` chooses it: `StoreCheckpoints` writes through a checkpoint store
(see `artemiskit.checkpoints`), `NoCheckpoints` stands in when there is none, so a
fresh run without a store pays nothing and the run driver never asks which it has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

import attrs

from artemiskit._errors import ArtemisError, SessionStateError, UnsupportedError
from artemiskit.engine._checkpointing import (
    Checkpointer,
    CheckpointMeta,
    binding_for,
    now_ms,
)
from artemiskit.engine._state import SessionState
from artemiskit.engine._stops import stop_for
from artemiskit.records._record import RecoveryInfo

if TYPE_CHECKING:
    from artemiskit.checkpoints._store import CheckpointStore
    from artemiskit.engine._plan import SessionPlan
    from artemiskit.engine._preflight import PreflightMode
    from artemiskit.engine._state import Counters, Stop
    from artemiskit.tools._catalogue import Catalogue
    from artemiskit.workflow._model import Workflow

__all__ = [
    "CheckpointMode",
    "NoCheckpoints",
    "Resumption",
    "RunCheckpoints",
    "StoreCheckpoints",
    "checkpoints_for",
]

CheckpointMode = Literal["create", "resume"]
CheckpointStatus = Literal["none", "active", "resumable", "not_resumable", "terminal"]


@attrs.frozen(kw_only=True)
class Resumption:
    """What a resumed run continues from.

    Attributes:
        run_id: The run's identity, kept across attempts.
        state: The paused state.
        files: The environment's saved files.
        remaining_s: Seconds left before the run's absolute deadline.
    """

    run_id: str
    state: SessionState
    files: dict[str, str]
    remaining_s: float


class RunCheckpoints(Protocol):
    """What the run driver asks of checkpointing."""

    @property
    def enabled(self) -> bool:
        """Whether this run writes a checkpoint."""
        ...

    async def begin(
        self, state: SessionState, *, run_id: str, attempt_id: str
    ) -> Resumption | None:
        """Create the checkpoint, or restore a paused one (then returned)."""
        ...

    async def recovered(self, state: SessionState) -> None:
        """After the environment is recreated: take over a restored checkpoint."""
        ...

    async def commit(self, state: SessionState) -> None:
        """Durably record ``state`` (before any invocation)."""
        ...

    async def stage(self, state: SessionState) -> None:
        """Record ``state`` at a safe boundary, durable with the next commit."""
        ...

    def request_pause(self) -> None:
        """Pause at the next safe boundary."""
        ...

    def pause_due(self, counters: Counters) -> Stop | None:
        """At a safe boundary: the pause to take here, if any."""
        ...

    async def end(
        self, state: SessionState, files: dict[str, str] | None, cleanup_complete: bool
    ) -> None:
        """Commit the final snapshot and release the store."""
        ...

    async def close(self) -> None:
        """Release the store without a final snapshot (a refused begin)."""
        ...

    def info(self) -> RecoveryInfo:
        """The record's ``recovery`` section."""
        ...

    def use_catalogue(self, catalogue: Catalogue) -> None:
        """Bind to ``catalogue`` (the run's tools once its MCP tools are listed)."""
        ...


def checkpoints_for(
    plan: SessionPlan,
    *,
    workflow_digest: str,
    scorers_digest: str | None = None,
) -> RunCheckpoints:
    """The checkpointing of a run: through the plan's store, or none without one.

    Raises:
        UnsupportedError: A store is given but the environment does not declare
            checkpoint support.
        SessionStateError: ``pause_after_actions`` is given without a store.
    """
    store = plan.checkpoint_store
    environment = plan.environment
    pause_after_actions = plan.pause_after_actions
    if store is not None and not getattr(environment, "supports_checkpoint", False):
        raise UnsupportedError(
            "this environment does not declare checkpoint support, so it cannot "
            "be checkpointed",
            reason="environment_not_checkpointable",
        )
    if pause_after_actions is not None and store is None:
        raise SessionStateError(
            "pause_after_actions needs a checkpoint store", reason="invalid_option"
        )
    if store is None:
        return NoCheckpoints()
    return StoreCheckpoints(
        store,
        mode=plan.checkpoint_mode,
        configuration_id=plan.configuration_id,
        pause_after_actions=pause_after_actions,
        workflow=plan.workflow,
        workflow_digest=workflow_digest,
        preflight=plan.preflight,
        catalogue=plan.catalogue,
        scorers_digest=scorers_digest,
    )


class NoCheckpoints:
    """Checkpointing when there is no store: nothing is written, nothing pauses."""

    @property
    def enabled(self) -> bool:
        """Always ``False``."""
        return False

    async def begin(
        self, state: SessionState, *, run_id: str, attempt_id: str
    ) -> Resumption | None:
        """Nothing to create or restore."""
        return None

    async def recovered(self, state: SessionState) -> None:
        """Nothing to take over."""

    async def commit(self, state: SessionState) -> None:
        """Nothing to record."""

    async def stage(self, state: SessionState) -> None:
        """Nothing to record."""

    def request_pause(self) -> None:
        """A run without a store never pauses."""

    def pause_due(self, counters: Counters) -> Stop | None:
        """Never."""
        return None

    async def end(
        self, state: SessionState, files: dict[str, str] | None, cleanup_complete: bool
    ) -> None:
        """Nothing to finish."""

    async def close(self) -> None:
        """Nothing to release."""

    def use_catalogue(self, catalogue: Catalogue) -> None:
        """Nothing is bound."""

    def info(self) -> RecoveryInfo:
        """A single attempt without a checkpoint."""
        return RecoveryInfo(
            checkpointing=False,
            attempt_number=1,
            resumed_from_attempt=None,
            checkpoint_status="none",
            resumable=False,
            pause_after_actions=None,
        )


class StoreCheckpoints:
    """Checkpointing through a `CheckpointStore` (SPEC 3.5)."""

    def __init__(
        self,
        store: CheckpointStore,
        *,
        mode: CheckpointMode,
        configuration_id: str | None,
        pause_after_actions: int | None,
        workflow: Workflow,
        workflow_digest: str,
        preflight: PreflightMode,
        catalogue: Catalogue,
        scorers_digest: str | None = None,
    ) -> None:
        self._checkpointer = Checkpointer(store)
        self._scorers_digest = scorers_digest
        self._mode = mode
        self._configuration_id = configuration_id
        self._pause_after_actions = pause_after_actions
        self._workflow = workflow
        self._digest = workflow_digest
        self._preflight = preflight
        self._catalogue = catalogue
        self._pause_requested = False
        self._actions_at_start = 0
        self._attempt_number = 1
        self._resumed_from: str | None = None
        self._restored_meta: CheckpointMeta | None = None
        self._status: CheckpointStatus = "none"

    @property
    def enabled(self) -> bool:
        """Always ``True``."""
        return True

    async def begin(
        self, state: SessionState, *, run_id: str, attempt_id: str
    ) -> Resumption | None:
        """Create or restore the checkpoint; a restored one is returned.

        Runs before any provider call or environment creation, so every refusal
        happens before anything could have an effect.
        """
        binding = binding_for(
            self._workflow,
            workflow_digest=self._digest,
            configuration_id=self._configuration_id,
            preflight=self._preflight,
            catalogue=self._catalogue,
            scorers_digest=self._scorers_digest,
        )
        now = now_ms()
        if self._mode == "create":
            meta = CheckpointMeta(
                run_id=run_id,
                attempt_id=attempt_id,
                attempt_number=1,
                resumed_from_attempt=None,
                status="active",
                deadline_epoch_ms=now + self._workflow.budgets.timeout_ms,
                last_observed_epoch_ms=now,
                environment_kind=self._workflow.environment.kind,
                environment_saved=False,
                environment_digest=None,
                binding=binding,
            )
            await self._checkpointer.create(state, meta)
            self._status = "active"
            return None
        restored, meta, files = await self._checkpointer.resume(binding)
        self._resumed_from = meta.attempt_id
        self._attempt_number = meta.attempt_number + 1
        self._actions_at_start = restored.counters.actions
        self._restored_meta = attrs.evolve(
            meta,
            attempt_id=attempt_id,
            attempt_number=self._attempt_number,
            resumed_from_attempt=meta.attempt_id,
            status="active",
            environment_saved=False,
            environment_digest=None,
        )
        self._status = "active"
        return Resumption(
            run_id=meta.run_id,
            state=restored,
            files=files,
            remaining_s=max(meta.deadline_epoch_ms - now_ms(), 0) / 1000,
        )

    async def recovered(self, state: SessionState) -> None:
        """Mark the resumed attempt active, then lift the recovery guard."""
        if self._restored_meta is not None:
            await self._checkpointer.recovered(state, self._restored_meta)

    async def commit(self, state: SessionState) -> None:
        """Durably record the transition to ``state`` (a small delta)."""
        await self._checkpointer.commit(state)

    async def stage(self, state: SessionState) -> None:
        """Record the transition to ``state``, durable with the next commit."""
        await self._checkpointer.stage(state)

    def request_pause(self) -> None:
        """Pause at the next safe boundary."""
        self._pause_requested = True

    def pause_due(self, counters: Counters) -> Stop | None:
        """A requested pause, or the ``pause_after_actions`` threshold reached."""
        if self._pause_requested:
            return stop_for("paused", "pause_requested")
        threshold = self._pause_after_actions
        used = counters.actions - self._actions_at_start
        if threshold is not None and used >= threshold:
            return stop_for("paused", "pause_after_actions")
        return None

    async def end(
        self, state: SessionState, files: dict[str, str] | None, cleanup_complete: bool
    ) -> None:
        """Commit the final snapshot: paused (resumable), interrupted or terminal.

        A refused write leaves the checkpoint not resumable; the store's claim is
        released either way.
        """
        checkpointer = self._checkpointer
        stop = state.stop
        try:
            try:
                if stop is not None and stop.status == "paused":
                    if files is not None and cleanup_complete:
                        await checkpointer.finish(state, "paused", files=files)
                        self._status = "resumable"
                    else:
                        await checkpointer.finish(state, "interrupted")
                        self._status = "not_resumable"
                elif stop is not None and stop.status == "cancelled":
                    await checkpointer.finish(state, "interrupted")
                    self._status = "not_resumable"
                else:
                    await checkpointer.finish(state, "terminal")
                    self._status = "terminal"
            finally:
                await checkpointer.close()
        except ArtemisError:
            self._status = "not_resumable"

    async def close(self) -> None:
        """Release the store's claim; nothing is deleted."""
        await self._checkpointer.close()

    def use_catalogue(self, catalogue: Catalogue) -> None:
        """Bind the checkpoint to ``catalogue`` (called before `begin`)."""
        self._catalogue = catalogue

    def info(self) -> RecoveryInfo:
        """Which attempt this is, and what its checkpoint became."""
        return RecoveryInfo(
            checkpointing=True,
            attempt_number=self._attempt_number,
            resumed_from_attempt=self._resumed_from,
            checkpoint_status=self._status,
            resumable=self._status == "resumable",
            pause_after_actions=self._pause_after_actions,
        )
