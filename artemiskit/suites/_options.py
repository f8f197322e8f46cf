"""What a suite does and where it writes: `SuiteOptions` (SPEC 13)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict

import attrs

from artemiskit.engine._judge import JudgeSettings
from artemiskit.providers._replay import ReplayMode
from artemiskit.suites._executor import SuiteExecutor
from artemiskit.targets import AgentFactory, AgentTarget, TargetChoice
from artemiskit.telemetry._telemetry import Telemetry

__all__ = ["SuiteKeywords", "SuiteOptions", "SuiteTargets", "merge_suite_options"]

SuiteTargets = Sequence[str | TargetChoice] | Mapping[str, AgentTarget | AgentFactory]
"""What ``targets=`` accepts: ``ENTRY:MODEL`` strings and `TargetChoice` objects,
or a mapping of agent names to targets or factories (`target_choices`)."""


@attrs.frozen(kw_only=True)
class SuiteOptions:
    """How a suite runs: the same choices as the CLI's suite mode.

    Attributes:
        output_dir: A new or empty folder for ``suite.json``, the records and
            the transcripts; ``None`` writes nothing.
        repeat: Runs per workflow.
        concurrency: Runs in flight at most (bounded by a `ProcessExecutor`'s
            workers).
        min_pass_rate: Exit 8 when a workflow's pass rate is below it.
        max_suite_tokens: Suite budget; unmeasured usage also stops new starts.
        fail_fast: Start no run after the first that did not pass.
        transcripts: Keep each run's conversation (sensitive; needs
            ``output_dir``).
        judge: A `JudgeSettings` or the path of a judge configuration for
            ``judge`` outcomes.
        executor: Where runs execute: an executor or its name, ``local`` (the
            default, `LocalExecutor`), ``processes`` (`ProcessExecutor`) or
            ``ray`` (`RayExecutor`).
        cleanup_timeout_ms: Each run's cleanup drain period.
        telemetry: Export the suite as one OpenTelemetry trace (SPEC 25): the
            suite span its root, each run a child (local executor).
        gate: What ``min_pass_rate`` judges: the pass rate (``point``, the
            default) or its 95% interval's lower bound (``lower-bound``).
        max_errored: Errored runs (lost ones included) tolerated before the
            suite exits 7.
        targets: Targets that replace every workflow's own (SPEC 19): a
            mapping of agent names to `AgentTarget` objects or factories
            (callables returning one, called once per run), or a list of
            ``ENTRY:MODEL`` strings and `TargetChoice` objects. Every workflow
            runs on every target; ``None`` runs each workflow's own.
        cases: Of workflows with cases (SPEC 19), run only these case ids
            (``--case``); a unit is a (workflow, case). ``None`` runs every
            case. An id no workflow has is refused (exit 2).
        sample: Run a random subset of this many cases per workflow
            (``--sample N``), the same for the same ``seed``.
        seed: The sample's seed (``--seed S``, default 0).
        record_cassettes: A new or empty folder (made 0700) for every run's
            cassette, at the same relative path as its record under ``runs/``
            with the suffix ``.cassette.jsonl`` (0600; sensitive).
        replay: A folder of cassettes laid out as ``record_cassettes`` writes
            them: each run is answered from its own (all are read and checked
            before the first run starts).
        replay_mode: ``strict`` (default) or ``lenient`` (see `RunOptions`).
        replay_until: Replay this many model responses per run, then continue
            with the live target.
    """

    output_dir: str | os.PathLike[str] | None = None
    repeat: int = 1
    concurrency: int = 4
    min_pass_rate: float = 1.0
    max_suite_tokens: int | None = None
    fail_fast: bool = False
    transcripts: bool = False
    judge: JudgeSettings | str | os.PathLike[str] | None = None
    executor: SuiteExecutor | str | None = None
    cleanup_timeout_ms: int | None = None
    telemetry: Telemetry | None = None
    max_errored: int = 0
    gate: Literal["point", "lower-bound"] = "point"
    targets: SuiteTargets | None = None
    cases: Sequence[str] | None = None
    sample: int | None = None
    seed: int | None = None
    record_cassettes: str | os.PathLike[str] | None = None
    replay: str | os.PathLike[str] | None = None
    replay_mode: ReplayMode = "strict"
    replay_until: int | None = None


class SuiteKeywords(TypedDict, total=False):
    """The fields of `SuiteOptions`, accepted as keywords by the suite entry points."""

    output_dir: str | os.PathLike[str] | None
    repeat: int
    concurrency: int
    min_pass_rate: float
    max_suite_tokens: int | None
    fail_fast: bool
    transcripts: bool
    judge: JudgeSettings | str | os.PathLike[str] | None
    executor: SuiteExecutor | str | None
    cleanup_timeout_ms: int | None
    telemetry: Telemetry | None
    max_errored: int
    gate: Literal["point", "lower-bound"]
    targets: SuiteTargets | None
    cases: Sequence[str] | None
    sample: int | None
    seed: int | None
    record_cassettes: str | os.PathLike[str] | None
    replay: str | os.PathLike[str] | None
    replay_mode: ReplayMode
    replay_until: int | None


def merge_suite_options(
    options: SuiteOptions | None, keywords: SuiteKeywords
) -> SuiteOptions:
    """``options`` (or the defaults) with the given keywords applied over it."""
    return attrs.evolve(options or SuiteOptions(), **keywords)
