"""The checkpoint half of `WorkflowSession`: begin, commit, pause, end.

Kept apart from the session loop so that both stay readable. Without a checkpoint
store every method here is a no-op, so a fresh run pays nothing for it.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Literal

import attrs

from artemiskit._errors import SessionStateError, UnsupportedError
from artemiskit.engine import _transitions as t
from artemiskit.engine._checkpointing import (
    Checkpointer,
    CheckpointMeta,
    binding_for,
    now_ms,
)
from artemiskit.engine._state import Stop
from artemiskit.records._record import RecoveryInfo

if TYPE_CHECKING:
    import anyio

    from artemiskit.checkpoints._store import CheckpointStore
    from artemiskit.engine._events import EventHub
    from artemiskit.engine._preflight import PreflightMode
    from artemiskit.engine._state import SessionState
    from artemiskit.environments._base import EnvironmentFactory
    from artemiskit.tools._catalogue import Catalogue
    from artemiskit.workflow._model import Workflow

__all__ = ["CheckpointMode", "RecoveryMixin"]

CheckpointMode = Literal["create", "resume"]


class RecoveryMixin:
    """Checkpoint lifecycle for a session (see `artemiskit.checkpoints`)."""

    _workflow: Workflow
    _state: SessionState
    _digest: str
    _catalogue: Catalogue
    _factory: EnvironmentFactory
    _files: dict[str, str]
    _preflight_mode: PreflightMode
    _hub: EventHub
    run_id: str
    attempt_id: str

    def _init_recovery(
        self,
        *,
        store: CheckpointStore | None,
        mode: CheckpointMode,
        configuration_id: str | None,
        pause_after_actions: int | None,
    ) -> None:
        if store is not None and not getattr(
            self._factory, "supports_checkpoint", False
        ):
            raise UnsupportedError(
                "this environment does not declare checkpoint support, so it cannot "
                "be checkpointed",
                reason="environment_not_checkpointable",
            )
        if pause_after_actions is not None and store is None:
            raise SessionStateError(
                "pause_after_actions needs a checkpoint store", reason="invalid_option"
            )
        self._checkpointer = None if store is None else Checkpointer(store)
        self._checkpoint_mode = mode
        self._configuration_id = configuration_id
        self._pause_after_actions = pause_after_actions
        self._pause_requested = False
        self._pause_done: anyio.Event | None = None
        self._actions_at_start = 0
        self._attempt_number = 1
        self._resumed_from: str | None = None
        self._checkpoint_status: str = "none"

    @property
    def checkpointing(self) -> bool:
        """Whether this session writes a checkpoint."""
        return self._checkpointer is not None

    async def _begin_checkpoint(self) -> float | None:
        """Create or restore the checkpoint; return the seconds left, if resuming.

        Runs before any provider call or environment creation, so every refusal
        happens before anything could have an effect.
        """
        if self._checkpointer is None:
            return None
        binding = binding_for(
            self._workflow,
            workflow_digest=self._digest,
            configuration_id=self._configuration_id,
            preflight=self._preflight_mode,
            catalogue=self._catalogue,
        )
        now = now_ms()
        if self._checkpoint_mode == "create":
            meta = CheckpointMeta(
                run_id=self.run_id,
                attempt_id=self.attempt_id,
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
            await self._checkpointer.create(self._state, meta)
            self._checkpoint_status = "active"
            return None
        state, meta, files = await self._checkpointer.resume(binding)
        self.run_id = meta.run_id
        self._hub.run_id = meta.run_id
        self._resumed_from = meta.attempt_id
        self._attempt_number = meta.attempt_number + 1
        self._state = t.resume(state)
        self._files = files
        self._actions_at_start = state.counters.actions
        self._restored_meta = attrs.evolve(
            meta,
            attempt_id=self.attempt_id,
            attempt_number=self._attempt_number,
            resumed_from_attempt=meta.attempt_id,
            status="active",
            environment_saved=False,
            environment_digest=None,
        )
        self._checkpoint_status = "active"
        return max(meta.deadline_epoch_ms - now_ms(), 0) / 1000

    async def _recovered(self) -> None:
        """After the environment is recreated: take over the checkpoint."""
        if self._checkpointer is not None and self._checkpoint_mode == "resume":
            await self._checkpointer.recovered(self._state, self._restored_meta)

    async def _commit(self) -> None:
        """Durably record the current state (before any invocation, at boundaries)."""
        if self._checkpointer is not None:
            await self._checkpointer.commit(self._state)

    def _pause_due(self) -> Stop | None:
        """At a safe boundary: should the run pause here?"""
        if self._checkpointer is None:
            return None
        if self._pause_requested:
            return Stop(status="paused", reason="pause_requested", exit_code=10)
        threshold = self._pause_after_actions
        used = self._state.counters.actions - self._actions_at_start
        if threshold is not None and used >= threshold:
            return Stop(status="paused", reason="pause_after_actions", exit_code=10)
        return None

    async def _end_checkpoint(
        self, files: dict[str, str] | None, cleanup_complete: bool
    ) -> None:
        """Commit the final snapshot: paused (resumable), interrupted or terminal."""
        if self._checkpointer is None:
            return
        stop = self._state.stop
        try:
            if stop is not None and stop.status == "paused":
                if files is not None and cleanup_complete:
                    await self._checkpointer.finish(self._state, "paused", files=files)
                    self._checkpoint_status = "resumable"
                else:
                    await self._checkpointer.finish(self._state, "interrupted")
                    self._checkpoint_status = "not_resumable"
            elif stop is not None and stop.status == "cancelled":
                await self._checkpointer.finish(self._state, "interrupted")
                self._checkpoint_status = "not_resumable"
            else:
                await self._checkpointer.finish(self._state, "terminal")
                self._checkpoint_status = "terminal"
        finally:
            await self._checkpointer.close()

    def _recovery_info(self) -> RecoveryInfo:
        return RecoveryInfo(
            checkpointing=self._checkpointer is not None,
            attempt_number=self._attempt_number,
            resumed_from_attempt=self._resumed_from,
            checkpoint_status=self._checkpoint_status,  # type: ignore[arg-type]
            resumable=self._checkpoint_status == "resumable",
            pause_after_actions=self._pause_after_actions,
        )


def new_attempt_id() -> str:
    """A fresh attempt identity."""
    return uuid.uuid4().hex
