"""One run's cassettes: what it replays, what it records, and what its record says.

`RunCassette` is built with the session: it wraps the run's target and judge
(`wire`), loads and checks the cassette to replay before anything runs
(`prepare`), takes over a paused run's recorded exchanges on resume (`resumed`),
and at the end encodes the recorded cassette, writes it where asked (0600 in
0700 folders) and says what the record carries (`finish`): digests, never
content.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio.to_thread
import attrs

from artemiskit._common._atomic import write_atomically
from artemiskit._common._digests import bytes_digest
from artemiskit._common._json import MAX_EVIDENCE_INTEGER
from artemiskit._errors import CassetteError, FileAccessError, WorkflowError
from artemiskit.engine._evidence import contract_digest
from artemiskit.providers._replay import (
    ExchangeLog,
    RecordingTarget,
    ReplayingTarget,
    ReplayMode,
)
from artemiskit.records._cassette import (
    Cassette,
    CassetteHeader,
    encode_cassette,
    load_cassette,
    parse_cassette,
    read_cassette_bytes,
)
from artemiskit.records._record import CassetteInfo, ReplayInfo

if TYPE_CHECKING:
    from artemiskit.engine._judge import JudgeSettings
    from artemiskit.targets._protocol import AgentTarget
    from artemiskit.workflow._model import Workflow

__all__ = [
    "REPLAY_MODES",
    "CassetteOutput",
    "RunCassette",
    "check_binding",
    "contract_digest",
    "target_id",
]

REPLAY_MODES = ("strict", "lenient")
FOLDER_MODE = 0o700
FILE_MODE = 0o600

CassetteOutput = str | os.PathLike[str] | bool
"""Where a recorded cassette goes: a file path, or ``True`` to keep it in the
result only (`WorkflowResult.cassette`; a suite writes it itself)."""


def target_id(provider: str, model: str) -> str:
    """A target's id in cassettes: ``PROVIDER:MODEL``."""
    return f"{provider}:{model}"


def check_binding(cassette: Cassette, expected: CassetteHeader, source: str) -> None:
    """Refuse a cassette recorded for another workflow contract, case or target.

    Raises:
        CassetteError: ``cassette_foreign``, naming which binding differs.
    """
    header = cassette.header
    differs = [
        name
        for name, same in (
            ("workflow contract", header.contract_digest == expected.contract_digest),
            ("case", header.case_id == expected.case_id),
            ("target", header.target_id == expected.target_id),
        )
        if not same
    ]
    if differs:
        raise CassetteError(
            f"cassette {source}: recorded for another {' and '.join(differs)} "
            f"(it is bound to workflow {header.workflow!r}, case "
            f"{header.case_id!r}, target {header.target_id!r})",
            reason="cassette_foreign",
        )


def check_replay_options(mode: object, until: object) -> None:
    """Refuse a replay mode or fork point out of range (``invalid_option``).

    Raises:
        WorkflowError: ``mode`` is not strict/lenient, or ``until`` is below 0
            or beyond the 64-bit range.
    """
    if mode not in REPLAY_MODES:
        raise WorkflowError(
            "replay_mode must be 'strict' or 'lenient'", reason="invalid_option"
        )
    if until is not None and (
        isinstance(until, bool)
        or not isinstance(until, int)
        or not 0 <= until <= MAX_EVIDENCE_INTEGER
    ):
        raise WorkflowError(
            "replay_until must be a whole number between 0 and 2**63 - 1",
            reason="invalid_option",
        )


def _model_parameters(workflow: Workflow) -> dict[str, Any]:
    parameters = workflow.target.parameters
    return {
        "model": workflow.target.model,
        "temperature": parameters.temperature,
        "top_p": parameters.top_p,
        "seed": parameters.seed,
    }


def _private_folders(folder: Path) -> None:
    """Create ``folder`` and its missing parents with mode 0700."""
    missing: list[Path] = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir(mode=FOLDER_MODE, exist_ok=True)
        os.chmod(path, FOLDER_MODE)


class RunCassette:
    """The cassettes of one run: replayed from, recorded to.

    Args:
        header: What this run's cassettes are bound to.
        replay: The cassette to replay (loaded, or its path), or ``None``.
        mode: How strictly requests are checked against it.
        until: Replay this many model responses, then the live target.
        record: Where to write the recorded cassette (a path), ``True`` to keep
            it in the result only, or ``None``/``False`` not to record.
        resume: Whether this attempt resumes a paused run (a recorded cassette
            then continues the one at ``record``).
    """

    def __init__(
        self,
        *,
        header: CassetteHeader,
        replay: Cassette | str | os.PathLike[str] | None = None,
        mode: ReplayMode = "strict",
        until: int | None = None,
        record: CassetteOutput | None = None,
        resume: bool = False,
    ) -> None:
        check_replay_options(mode, until)
        self.header = header
        self._replay_source = replay
        self._replay: Cassette | None = replay if isinstance(replay, Cassette) else None
        self._mode: ReplayMode = mode
        self._until = until
        self._record_to = (
            None if record is None or isinstance(record, bool) else Path(record)
        )
        self._recording = record is not None and record is not False
        self._resume = resume
        self._log = ExchangeLog()
        self._replayers: list[tuple[ReplayingTarget, str]] = []

    @property
    def replaying(self) -> bool:
        """Whether this run answers from a cassette."""
        return self._replay_source is not None

    def wire(
        self, target: AgentTarget, judge: JudgeSettings | None, workflow: Workflow
    ) -> tuple[AgentTarget, JudgeSettings | None]:
        """Wrap the run's target and judge: replay first, then recording."""
        parameters = _model_parameters(workflow)
        if self.replaying:
            model = ReplayingTarget(
                (),
                kind="model",
                mode=self._mode,
                until=self._until,
                live=None if self._until is None else target,
                parameters=parameters,
            )
            self._replayers.append((model, "model"))
            target = model
        if self._recording:
            target = RecordingTarget(
                target, self._log, kind="model", parameters=parameters
            )
        if judge is None:
            return target, None
        judge_target = judge.target
        judge_parameters = {"model": judge.model}
        # a forked run's outcomes differ from the recorded run's: judged live
        if self.replaying and self._until is None:
            replayer = ReplayingTarget(
                (),
                kind="judge",
                mode=self._mode,
                until=None,
                live=None,
                parameters=judge_parameters,
            )
            self._replayers.append((replayer, "judge"))
            judge_target = replayer
        if self._recording:
            judge_target = RecordingTarget(
                judge_target, self._log, kind="judge", parameters=judge_parameters
            )
        return target, attrs.evolve(judge, target=judge_target)

    async def prepare(self) -> None:
        """Load (if needed) and check the cassette to replay, before anything runs.

        A new cassette to record is checked here too: its path must be new (a
        resumed run continues the one there instead).

        Raises:
            CassetteError: It is missing, not a regular file, corrupt, of an
                unknown version, or bound to another workflow, case or target.
            FileAccessError: The cassette to record exists already (exit 1).
        """
        path = self._record_to
        if (
            path is not None
            and not self._resume
            and await anyio.to_thread.run_sync(os.path.lexists, path)
        ):
            raise FileAccessError(
                f"cassette {os.fspath(path)} already exists; a recorded cassette "
                "is a new file",
                reason="output_exists",
            )
        source = self._replay_source
        if source is None:
            return
        if self._replay is None:
            assert not isinstance(source, Cassette)
            self._replay = await load_cassette(source)
        check_binding(self._replay, self.header, self._replay.source)
        for replayer, kind in self._replayers:
            replayer.load(self._replay.of_kind("model" if kind == "model" else "judge"))

    async def resumed(self, model_requests: int) -> None:
        """Continue a paused run's recorded cassette (its exchanges come first).

        Raises:
            CassetteError: The cassette at ``record`` is missing while the run
                already made requests, belongs to another binding, or does not
                hold exactly those requests (``cassette_out_of_step``).
        """
        if not self._recording or not self._resume:
            return
        path = self._record_to
        if path is None:
            return
        if not await anyio.to_thread.run_sync(os.path.lexists, path):
            if model_requests == 0:
                return
            raise CassetteError(
                f"cassette {os.fspath(path)}: no such file, but the paused run "
                "already made model requests; a resumed run continues its cassette",
                reason="cassette_missing",
            )
        source = os.fspath(path)
        data = await anyio.to_thread.run_sync(read_cassette_bytes, source)
        earlier = parse_cassette(data, source=source)
        check_binding(earlier, self.header, source)
        recorded = len(earlier.of_kind("model"))
        if recorded != model_requests or earlier.of_kind("judge"):
            raise CassetteError(
                f"cassette {source}: holds {recorded} model exchanges, but the "
                f"paused run made {model_requests} model requests",
                reason="cassette_out_of_step",
            )
        self._log.continue_after(earlier.exchanges)

    def replay_info(self) -> ReplayInfo | None:
        """The record's ``replay`` part, or ``None`` for a run not replayed."""
        if self._replay is None:
            return None
        return ReplayInfo(
            cassette_digest=self._replay.digest, mode=self._mode, fork_at=self._until
        )

    async def finish(self) -> tuple[bytes | None, CassetteInfo | None]:
        """Encode the recorded cassette, write it where asked; its record part.

        Raises:
            FileAccessError: The cassette could not be written (exit 1).
        """
        if not self._recording:
            return None, None
        data = encode_cassette(self.header, self._log.exchanges)
        path = self._record_to
        if path is not None:
            await anyio.to_thread.run_sync(self._write, path, data)
        return data, CassetteInfo(digest=bytes_digest(data))

    def _write(self, path: Path, data: bytes) -> None:
        _private_folders(path.parent)
        write_atomically(path, data, mode=FILE_MODE, replace=self._resume)
