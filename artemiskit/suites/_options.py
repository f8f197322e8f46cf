"""What a suite does and where it writes: `SuiteOptions` (SPEC 13)."""

from __future__ import annotations

import os
from typing import Literal, TypedDict

import attrs

from artemiskit.engine._judge import JudgeSettings
from artemiskit.suites._executor import SuiteExecutor
from artemiskit.telemetry._telemetry import Telemetry

__all__ = ["SuiteKeywords", "SuiteOptions", "merge_suite_options"]


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


def merge_suite_options(
    options: SuiteOptions | None, keywords: SuiteKeywords
) -> SuiteOptions:
    """``options`` (or the defaults) with the given keywords applied over it."""
    return attrs.evolve(options or SuiteOptions(), **keywords)
