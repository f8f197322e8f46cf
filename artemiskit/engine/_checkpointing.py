"""Explicit checkpoints (SPEC 3.5): what the engine persists and when it refuses.

A checkpoint is bound to the workflow, the tool catalogue, the policy, this harness
and the host's configuration identity. The snapshot holds the session state and a
`CheckpointMeta`; each committed transition appends a small state delta. The store
binds the journal to its snapshot by digest, and the meta names the digest of the
saved environment, so parts copied from another run are refused as corrupt. Only a
*paused* checkpoint is resumable: a terminal, interrupted, active (crashed) or
pending-operation checkpoint is refused, and so are expired ones and a wall clock
earlier than the last committed observation — all before any provider call or
environment creation.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import TYPE_CHECKING, Any, Literal

import attrs

from artemiskit._common._converter import CONVERTER
from artemiskit._common._digests import bytes_digest, json_digest
from artemiskit._errors import CheckpointError
from artemiskit.checkpoints._envelope import canonical_json
from artemiskit.checkpoints._store import Compaction
from artemiskit.engine._deltas import _first_difference, apply_delta, state_delta
from artemiskit.engine._state import SessionState
from artemiskit.targets._protocol import Message

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Mapping

    from artemiskit.checkpoints._store import CheckpointStore
    from artemiskit.tools._catalogue import Catalogue
    from artemiskit.workflow._model import Workflow

__all__ = [
    "HARNESS",
    "CheckpointBinding",
    "CheckpointMeta",
    "Checkpointer",
    "binding_for",
    "now_ms",
]

#: The native harness identity a checkpoint is bound to.
HARNESS = "artemiskit-native-engine/1"
#: Journal entries after which the state is compacted into a new snapshot, when
#: the store does not report sizes.
COMPACT_EVERY = 512
#: A store that reports sizes is compacted once its journal holds this many
#: bytes and at least `COMPACT_RATIO` times the snapshot's: the snapshot rewrite
#: then costs at most half the bytes appended since the last one, so the bytes
#: written per step stay flat however long the run grows.
COMPACT_MIN_BYTES = 1024 * 1024
COMPACT_RATIO = 2
FILES_ARTIFACT = "environment-files.json"

CheckpointStatus = Literal["active", "paused", "terminal", "interrupted"]


def now_ms() -> int:
    """The wall clock in epoch milliseconds."""
    return time.time_ns() // 1_000_000


@attrs.frozen(kw_only=True)
class CheckpointBinding:
    """Identities a resume must match exactly; anything else needs a fresh run."""

    workflow_digest: str
    catalogue_digest: str
    policy_digest: str
    harness: str
    configuration_id: str | None
    preflight: str
    #: Names and versions of the scorers the workflow's outcomes use (or None).
    scorers_digest: str | None = None


def binding_for(
    workflow: Workflow,
    *,
    workflow_digest: str,
    configuration_id: str | None,
    preflight: str,
    catalogue: Catalogue,
    scorers_digest: str | None = None,
) -> CheckpointBinding:
    """The binding of a run of ``workflow`` under a host configuration.

    The catalogue part digests every declared tool's declaration (name, schemas,
    resource, effect, state section and version), so a resume under a changed tool
    is refused; ``scorers_digest`` does the same for the scorers (name and
    version) that ``scorer`` outcomes use.
    """
    return CheckpointBinding(
        workflow_digest=workflow_digest,
        catalogue_digest=catalogue.digest(tool.name for tool in workflow.tools),
        policy_digest=json_digest(
            {
                "policy": CONVERTER.unstructure(workflow.policy),
                "tools": CONVERTER.unstructure(workflow.tools),
            }
        ),
        harness=HARNESS,
        configuration_id=configuration_id,
        preflight=preflight,
        scorers_digest=scorers_digest,
    )


@attrs.frozen(kw_only=True)
class CheckpointMeta:
    """Who wrote the checkpoint, in what state, and the run's absolute deadline."""

    run_id: str
    attempt_id: str
    attempt_number: int
    resumed_from_attempt: str | None
    status: CheckpointStatus
    deadline_epoch_ms: int
    last_observed_epoch_ms: int
    environment_kind: str
    environment_saved: bool
    environment_digest: str | None
    binding: CheckpointBinding


def _refuse(message: str, reason: str) -> CheckpointError:
    return CheckpointError(message, reason=reason)


class _EncodedConversation:
    """The persisted conversation's messages as canonical JSON, each encoded once.

    A compaction snapshot then encodes the rest of the state and splices these
    in, so its cost does not grow with the conversation: each message was
    encoded in the step that added it.
    """

    __slots__ = ("_items", "_marker", "_messages")

    def __init__(self) -> None:
        self._messages: tuple[Message, ...] = ()
        self._items: list[bytes] = []
        # stands for the conversation in the encoded rest; JSON escapes the NUL
        self._marker = "\x00" + secrets.token_hex(16)

    def update(self, conversation: tuple[Message, ...]) -> None:
        """Encode the messages ``conversation`` added since the last update."""
        start = _first_difference(self._messages, conversation)
        if start < 0:
            return
        del self._items[start:]
        for message in conversation[start:]:
            self._items.append(canonical_json(CONVERTER.unstructure(message, Message)))
        self._messages = conversation

    def payload(self, state: SessionState, meta: CheckpointMeta) -> bytes:
        """The canonical JSON of the snapshot payload of ``state`` and ``meta``."""
        self.update(state.conversation)
        rest = CONVERTER.unstructure(attrs.evolve(state, conversation=()))
        rest["conversation"] = self._marker
        payload = {"meta": CONVERTER.unstructure(meta), "state": rest}
        before, marker, after = canonical_json(payload).partition(
            canonical_json(self._marker)
        )
        if not marker or canonical_json(self._marker) in after:
            rest["conversation"] = CONVERTER.unstructure(state.conversation)
            return canonical_json(payload)
        return b"".join((before, b"[", b",".join(self._items), b"]", after))


class Checkpointer:
    """Writes one run's checkpoint through a `CheckpointStore`."""

    def __init__(self, store: CheckpointStore) -> None:
        self.store = store
        self._persisted: SessionState | None = None
        self._meta: CheckpointMeta | None = None
        self._entries = 0
        self._journal_bytes: int | None = 0
        self._snapshot_bytes: int | None = 0
        self._conversation: _EncodedConversation | None = (
            _EncodedConversation()
            if getattr(store, "compacts_in_background", False)
            else None
        )

    async def create(self, state: SessionState, meta: CheckpointMeta) -> None:
        """Open a new checkpoint and commit the first snapshot."""
        await self.store.open(mode="create")
        await self._snapshot(state, meta)

    async def _snapshot(self, state: SessionState, meta: CheckpointMeta) -> None:
        size = await self.store.commit_snapshot(
            {
                "meta": CONVERTER.unstructure(meta),
                "state": CONVERTER.unstructure(state),
            }
        )
        self._persisted = state
        self._meta = meta
        self._entries = 0
        self._journal_bytes = 0
        self._snapshot_bytes = size

    def _compaction_due(self) -> bool:
        journal, snapshot = self._journal_bytes, self._snapshot_bytes
        if journal is None or snapshot is None:
            return self._entries >= COMPACT_EVERY
        return journal >= max(COMPACT_MIN_BYTES, COMPACT_RATIO * snapshot)

    async def commit(self, state: SessionState) -> None:
        """Durably record the transition to ``state`` (a small delta)."""
        assert self._persisted is not None
        assert self._meta is not None
        if state is self._persisted:
            return
        meta = attrs.evolve(self._meta, last_observed_epoch_ms=now_ms())
        if self._compaction_due():
            if self._conversation is None:
                await self._snapshot(state, meta)
                return
            await self._compact(self._conversation)
        await self._append(state, meta, self.store.append)

    async def _compact(self, conversation: _EncodedConversation) -> None:
        """Compact into a snapshot of what is persisted, off the admission path.

        The store may write it in the background: it holds nothing the journal
        lacks, so the transition committed next goes to the journal, synced, as
        any other.
        """
        assert self._persisted is not None
        assert self._meta is not None
        encoded = conversation.payload(self._persisted, self._meta)
        size = await self.store.commit_snapshot(Compaction(encoded))
        self._entries = 0
        self._journal_bytes = 0
        self._snapshot_bytes = size

    async def stage(self, state: SessionState) -> None:
        """Write the transition to ``state`` without waiting for the disk.

        Only with a store that offers ``append_buffered``: the entry is on file
        at once and durable with the next `commit`. Otherwise nothing is written
        here and the next commit's delta holds this transition too.
        """
        assert self._persisted is not None
        assert self._meta is not None
        buffered = getattr(self.store, "append_buffered", None)
        if buffered is None or state is self._persisted:
            return
        meta = attrs.evolve(self._meta, last_observed_epoch_ms=now_ms())
        await self._append(state, meta, buffered)

    async def _append(
        self,
        state: SessionState,
        meta: CheckpointMeta,
        write: Callable[[Mapping[str, Any]], Awaitable[int | None]],
    ) -> None:
        assert self._persisted is not None
        size = await write(
            {
                "delta": state_delta(self._persisted, state),
                "observed": meta.last_observed_epoch_ms,
            }
        )
        self._persisted = state
        self._meta = meta
        self._entries += 1
        if size is None or self._journal_bytes is None:
            self._journal_bytes = None
        else:
            self._journal_bytes += size
        if self._conversation is not None:
            self._conversation.update(state.conversation)

    async def finish(
        self,
        state: SessionState,
        status: CheckpointStatus,
        *,
        files: dict[str, str] | None = None,
    ) -> None:
        """Commit a final snapshot with ``status`` (and the files, when pausing)."""
        assert self._meta is not None
        environment_digest = None
        if files is not None:
            data = json.dumps(files, sort_keys=True).encode("utf-8")
            await self.store.write_artifact(FILES_ARTIFACT, data)
            environment_digest = bytes_digest(data)
        meta = attrs.evolve(
            self._meta,
            status=status,
            last_observed_epoch_ms=now_ms(),
            environment_saved=files is not None,
            environment_digest=environment_digest,
        )
        await self._snapshot(state, meta)

    async def resume(
        self, binding: CheckpointBinding
    ) -> tuple[SessionState, CheckpointMeta, dict[str, str]]:
        """Open, verify and restore a paused checkpoint; refuse anything else.

        The recovery guard stays in place until `recovered` is called, so a crash
        during restoration fails closed.
        """
        await self.store.open(mode="resume")
        await self.store.begin_recovery()
        try:
            state, meta = await self._restore(binding)
            files = await self._saved_files(meta)
        except CheckpointError:
            # A clean refusal changed nothing: lift the guard we just set.
            await self.store.end_recovery()
            raise
        self._persisted = state
        self._meta = meta
        return state, meta, files

    async def _saved_files(self, meta: CheckpointMeta) -> dict[str, str]:
        """Read the saved environment, which must be the one ``meta`` names."""
        data = await self.store.read_artifact(FILES_ARTIFACT)
        if bytes_digest(data) != meta.environment_digest:
            raise _refuse(
                "the checkpoint's saved environment does not belong to its snapshot "
                "(copied from another run or another pause); the checkpoint cannot "
                "be trusted — start a fresh run",
                "corrupt_checkpoint",
            )
        files: dict[str, str] = json.loads(data.decode("utf-8"))  # ours: digest
        return files

    async def _restore(
        self, binding: CheckpointBinding
    ) -> tuple[SessionState, CheckpointMeta]:
        loaded = await self.store.load()
        try:
            meta = CONVERTER.structure(loaded.snapshot["meta"], CheckpointMeta)
            state = CONVERTER.structure(loaded.snapshot["state"], SessionState)
            for entry in loaded.entries:
                state = apply_delta(state, entry["delta"])
                meta = attrs.evolve(meta, last_observed_epoch_ms=entry["observed"])
        except Exception as exc:
            raise _refuse(
                "the checkpoint's contents do not decode as a session",
                "corrupt_checkpoint",
            ) from exc
        self._verify(meta, state, binding)
        return state, meta

    async def recovered(self, state: SessionState, meta: CheckpointMeta) -> None:
        """Mark the resumed attempt active, then lift the recovery guard."""
        await self._snapshot(state, meta)
        await self.store.end_recovery()

    @staticmethod
    def _verify(
        meta: CheckpointMeta, state: SessionState, binding: CheckpointBinding
    ) -> None:
        if any(op.status == "admitted" for op in state.ledger):
            raise _refuse(
                "the checkpoint holds an operation that was admitted but never "
                "settled (the process stopped mid-call); it may have had an effect "
                "or consumed unreported tokens, so it cannot be replayed — start a "
                "fresh run",
                "pending_operation",
            )
        if any(
            op.status == "unknown" and op.reason == "tool_raised" for op in state.ledger
        ):
            raise _refuse(
                "the checkpoint holds a write whose effect is unknown (the tool's "
                "handler raised after it may have changed state), so the run "
                "cannot continue from here — start a fresh run",
                "unknown_effect",
            )
        if meta.status == "terminal":
            raise _refuse(
                "the checkpoint is terminal: its run already ended; a finished run "
                "cannot be resumed as another repetition",
                "terminal_checkpoint",
            )
        if meta.status == "interrupted":
            raise _refuse(
                "the checkpoint was left by a cancelled run; interrupted evidence "
                "is not resumable",
                "interrupted_checkpoint",
            )
        if meta.status == "active":
            reason = (
                "active_sandbox_crash"
                if meta.environment_kind == "sandbox"
                else "crashed_attempt"
            )
            raise _refuse(
                "the checkpoint's attempt stopped without pausing (it crashed); its "
                "environment was not saved and its cleanup cannot be inferred",
                reason,
            )
        if meta.binding != binding:
            differing = [
                name
                for name in attrs.fields_dict(CheckpointBinding)
                if getattr(meta.binding, name) != getattr(binding, name)
            ]
            raise _refuse(
                "the checkpoint belongs to a different "
                + ", ".join(differing)
                + "; resume needs the same workflow, tool catalogue, policy, harness "
                "and configuration — start a fresh run instead",
                "incompatible_checkpoint",
            )
        now = now_ms()
        if now < meta.last_observed_epoch_ms:
            raise _refuse(
                "the wall clock is earlier than the checkpoint's last committed "
                "observation; refusing to resume on a clock that moved backwards",
                "clock_moved_backwards",
            )
        if now >= meta.deadline_epoch_ms:
            raise _refuse(
                "the checkpoint's workflow deadline has passed (stopped time counts)",
                "checkpoint_expired",
            )
        if not meta.environment_saved:
            raise _refuse(
                "the checkpoint has no saved environment", "unsaved_environment"
            )

    async def close(self) -> None:
        """Release the store's claim; nothing is deleted."""
        await self.store.close()
