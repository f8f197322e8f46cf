"""The conformance suite every checkpoint store must pass (see `artemiskit.testing`).

Build a `CheckpointStoreConformance` from two callables, ``new_location()`` (a fresh,
unused location each call) and ``store_at(location)`` (a new, unopened store for it),
then run each name of `CheckpointStoreConformance.check_names()`; with pytest::

    @pytest.mark.parametrize("check", CheckpointStoreConformance.check_names())
    async def test_my_store(check: str, tmp_path: Path) -> None:
        locations = (str(tmp_path / f"c{n}") for n in itertools.count())
        suite = CheckpointStoreConformance(
            new_location=lambda: next(locations), store_at=MyStore
        )
        await suite.run(check)

Each check uses its own location, closes every store it opens, and raises
`ConformanceFailure` (an `AssertionError`) on the first difference from the
contract of `CheckpointStore`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import attrs

from artemiskit._errors import CheckpointError, SessionStateError
from artemiskit.checkpoints._store import CheckpointStore, LoadedCheckpoint, OpenMode
from artemiskit.testing._environments import ConformanceFailure

__all__ = ["CheckpointStoreConformance"]

_PAYLOAD: dict[str, Any] = {
    "conversation": [{"role": "user", "content": "é✓ \r\n\x00 \ud800 end"}],
    "cursor": {"turn": 3, "calls": [1, 2]},
    "counters": {"actions": 7, "big": 2**70, "ratio": 0.1, "negative": -1e-300},
    "flags": [True, False, None],
    "empty": {},
}


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise ConformanceFailure(message)


async def _refused(reason: str, operation: Awaitable[object], what: str) -> None:
    try:
        await operation
    except CheckpointError as exc:
        _expect(exc.reason == reason, f"{what}: reason {exc.reason!r}, not {reason!r}")
    else:
        raise ConformanceFailure(f"{what}: accepted, expected refusal {reason!r}")


async def _misused(operation: Awaitable[object], what: str) -> None:
    try:
        await operation
    except SessionStateError:
        pass
    else:
        raise ConformanceFailure(f"{what}: accepted, expected SessionStateError")


def _expect_loaded(
    loaded: LoadedCheckpoint,
    snapshot: dict[str, Any],
    entries: list[dict[str, Any]],
    what: str,
) -> None:
    _expect(isinstance(loaded, LoadedCheckpoint), f"{what}: not a LoadedCheckpoint")
    _expect(loaded.snapshot == snapshot, f"{what}: snapshot differs")
    _expect(loaded.entries == tuple(entries), f"{what}: entries differ")
    _expect(loaded.torn_tail is False, f"{what}: torn tail reported")


@attrs.frozen(kw_only=True)
class CheckpointStoreConformance:
    """The shared behaviour of checkpoint stores, as runnable checks.

    Attributes:
        new_location: Returns a fresh, unused location each call.
        store_at: Returns a new, unopened store for a location.
    """

    new_location: Callable[[], str]
    store_at: Callable[[str], CheckpointStore]

    @classmethod
    def check_names(cls) -> list[str]:
        """Return the name of every check, sorted."""
        return sorted(
            name
            for name in dir(cls)
            if name.startswith("check_") and name != "check_names"
        )

    async def run(self, name: str) -> None:
        """Run the check called ``name``.

        Raises:
            ConformanceFailure: The store broke the contract.
            ValueError: There is no check called ``name``.
        """
        if name not in self.check_names():
            raise ValueError(f"no conformance check named {name!r}")
        check: Callable[[], Awaitable[None]] = getattr(self, name)
        await check()

    @contextlib.asynccontextmanager
    async def _opened(
        self, location: str, mode: OpenMode
    ) -> AsyncIterator[CheckpointStore]:
        store = self.store_at(location)
        _expect(isinstance(store, CheckpointStore), "not a CheckpointStore")
        await store.open(mode=mode)
        try:
            yield store
        finally:
            await store.close()

    async def check_round_trip(self) -> None:
        """A committed snapshot and appended entries load back exactly."""
        location = self.new_location()
        entries = [{"step": n, "text": "x" * n} for n in range(5)]
        async with self._opened(location, "create") as store:
            await store.commit_snapshot(_PAYLOAD)
            for entry in entries:
                await store.append(entry)
            _expect_loaded(await store.load(), _PAYLOAD, entries, "same store")
        async with self._opened(location, "resume") as store:
            _expect_loaded(await store.load(), _PAYLOAD, entries, "after resume")

    async def check_compaction_resets_journal(self) -> None:
        """A new snapshot replaces the old one and starts an empty journal."""
        location = self.new_location()
        async with self._opened(location, "create") as store:
            await store.commit_snapshot({"generation": 1})
            await store.append({"delta": 1})
            await store.commit_snapshot({"generation": 2})
            _expect_loaded(await store.load(), {"generation": 2}, [], "compacted")
            await store.append({"delta": 2})
        async with self._opened(location, "resume") as store:
            loaded = await store.load()
            _expect_loaded(loaded, {"generation": 2}, [{"delta": 2}], "resumed")

    async def check_resume_continues_the_journal(self) -> None:
        """Entries appended after a resume follow the earlier ones."""
        location = self.new_location()
        async with self._opened(location, "create") as store:
            await store.commit_snapshot({"s": 1})
            await store.append({"n": 1})
        async with self._opened(location, "resume") as store:
            await store.load()
            await store.append({"n": 2})
        async with self._opened(location, "resume") as store:
            loaded = await store.load()
            _expect_loaded(loaded, {"s": 1}, [{"n": 1}, {"n": 2}], "second resume")
            await store.commit_snapshot({"s": 2})
        async with self._opened(location, "resume") as store:
            _expect_loaded(await store.load(), {"s": 2}, [], "compacted on resume")

    async def check_artifacts(self) -> None:
        """Artifacts are written, replaced and read back, and survive a resume."""
        location = self.new_location()
        blob = bytes(range(256)) * 40
        async with self._opened(location, "create") as store:
            await store.write_artifact("sandbox-1.tar", blob)
            await store.write_artifact("empty", b"")
            await store.write_artifact("notes_v2", b"old")
            await store.write_artifact("notes_v2", b"new")
            await store.commit_snapshot({"artifact": "sandbox-1.tar"})
            _expect(await store.read_artifact("empty") == b"", "empty artifact")
        async with self._opened(location, "resume") as store:
            _expect(await store.read_artifact("sandbox-1.tar") == blob, "blob differs")
            _expect(await store.read_artifact("notes_v2") == b"new", "not replaced")
            await _refused(
                "artifact_missing", store.read_artifact("absent"), "missing artifact"
            )
            for name in ("", "../x", "a/b", ".hidden", "-x", "x" * 129, "é"):
                await _refused(
                    "invalid_artifact_name",
                    store.write_artifact(name, b"x"),
                    f"artifact name {name!r}",
                )

    async def check_create_refuses_an_existing_checkpoint(self) -> None:
        """``create`` is refused where a snapshot exists; the data stays."""
        location = self.new_location()
        async with self._opened(location, "create") as store:
            await store.commit_snapshot({"kept": True})
        again = self.store_at(location)
        await _refused("checkpoint_exists", again.open(mode="create"), "create")
        await again.close()
        async with self._opened(location, "resume") as store:
            _expect_loaded(await store.load(), {"kept": True}, [], "after refusal")

    async def check_resume_refuses_a_missing_checkpoint(self) -> None:
        """``resume`` is refused where nothing (or no snapshot) was committed."""
        location = self.new_location()
        store = self.store_at(location)
        await _refused("checkpoint_missing", store.open(mode="resume"), "nothing")
        async with self._opened(location, "create") as created:
            await created.write_artifact("only", b"artifact, no snapshot")
        await _refused("checkpoint_missing", store.open(mode="resume"), "no snapshot")
        await store.close()

    async def check_second_open_is_refused_while_claimed(self) -> None:
        """Only one store at a time has a checkpoint open; close releases it."""
        location = self.new_location()
        async with self._opened(location, "create") as store:
            await store.commit_snapshot({"s": 1})
            second = self.store_at(location)
            await _refused(
                "claimed_by_live_process", second.open(mode="resume"), "second open"
            )
            await second.close()
        async with self._opened(location, "resume") as store:
            _expect_loaded(await store.load(), {"s": 1}, [], "after release")

    async def check_crashed_recovery_fails_closed(self) -> None:
        """A recovery guard left behind refuses every later open."""
        location = self.new_location()
        async with self._opened(location, "create") as store:
            await store.commit_snapshot({"s": 1})
        async with self._opened(location, "resume") as store:
            await store.begin_recovery()
        for mode in ("resume", "create"):
            again = self.store_at(location)
            await _refused("recovery_guard_present", again.open(mode=mode), mode)
            await again.close()

    async def check_completed_recovery_allows_resume(self) -> None:
        """``end_recovery`` removes the guard; recovery calls must pair up."""
        location = self.new_location()
        async with self._opened(location, "create") as store:
            await store.commit_snapshot({"s": 1})
            await _misused(store.end_recovery(), "end without begin")
            await store.begin_recovery()
            await _misused(store.begin_recovery(), "begin twice")
            await store.append({"restored": True})
            await store.end_recovery()
        async with self._opened(location, "resume") as store:
            _expect_loaded(await store.load(), {"s": 1}, [{"restored": True}], "end")

    async def check_misuse_is_refused(self) -> None:
        """Calls out of order raise `SessionStateError`; close is idempotent."""
        location = self.new_location()
        store = self.store_at(location)
        await store.close()
        await _misused(store.load(), "load before open")
        await _misused(store.append({}), "append before open")
        await _misused(store.commit_snapshot({}), "commit before open")
        await _misused(store.read_artifact("a"), "read artifact before open")
        await store.open(mode="create")
        try:
            await _misused(store.open(mode="create"), "open twice")
            await _misused(store.append({"n": 1}), "append before a snapshot")
            await _refused("checkpoint_missing", store.load(), "load before snapshot")
        finally:
            await store.close()
            await store.close()
        await _misused(store.load(), "load after close")

    async def check_close_retains_the_checkpoint(self) -> None:
        """Closing never deletes: the checkpoint resumes any number of times."""
        location = self.new_location()
        async with self._opened(location, "create") as store:
            await store.commit_snapshot({"s": 1})
            await store.append({"n": 1})
        for attempt in range(3):
            async with self._opened(location, "resume") as store:
                loaded = await store.load()
                _expect_loaded(loaded, {"s": 1}, [{"n": 1}], f"resume {attempt}")
