"""Suites: many workflows, many repetitions, pass rates with their uncertainty.

`ArtemisKit.run_suite` / `ArtemisKit.create_suite_session` are the entry points;
this package holds the runner, the executors, the statistics, the suite record
(``suite.json``, validated against its shipped JSON Schema) and the CI exports.
"""

from __future__ import annotations

from artemiskit.suites._discovery import (
    SuiteWorkflow,
    discover_workflows,
    is_workflow_file,
)
from artemiskit.suites._executor import (
    EXECUTOR_NAMES,
    LocalExecutor,
    PlannedRun,
    RunLost,
    SuiteExecutor,
    executor_named,
)
from artemiskit.suites._exports import junit_xml, markdown_summary
from artemiskit.suites._options import SuiteKeywords, SuiteOptions
from artemiskit.suites._plan import RepetitionPlan, plan_repetitions, plan_suite
from artemiskit.suites._processes import ProcessExecutor
from artemiskit.suites._ray import RayExecutor
from artemiskit.suites._record import (
    SUITE_SCHEMA,
    SUITE_SCHEMA_VERSION,
    cause_text,
    load_suite_record,
    suite_record_schema,
    validate_suite_record,
)
from artemiskit.suites._runner import (
    SessionFactory,
    SuiteEvent,
    SuiteResult,
    SuiteRun,
    SuiteSession,
    SuiteSettings,
)
from artemiskit.suites._shipping import RemoteRun
from artemiskit.suites._statistics import (
    Interval,
    pass_at_k,
    pass_hat_k,
    percentile,
    wilson_interval,
)
from artemiskit.suites._transcript import TRANSCRIPT_SCHEMA, transcript_to_dict

__all__ = [
    "EXECUTOR_NAMES",
    "Interval",
    "LocalExecutor",
    "PlannedRun",
    "ProcessExecutor",
    "RayExecutor",
    "RemoteRun",
    "RepetitionPlan",
    "RunLost",
    "SUITE_SCHEMA",
    "SUITE_SCHEMA_VERSION",
    "SessionFactory",
    "SuiteEvent",
    "SuiteExecutor",
    "SuiteKeywords",
    "SuiteOptions",
    "SuiteResult",
    "SuiteRun",
    "SuiteSession",
    "SuiteSettings",
    "SuiteWorkflow",
    "TRANSCRIPT_SCHEMA",
    "cause_text",
    "discover_workflows",
    "executor_named",
    "is_workflow_file",
    "junit_xml",
    "load_suite_record",
    "markdown_summary",
    "pass_at_k",
    "pass_hat_k",
    "percentile",
    "plan_repetitions",
    "plan_suite",
    "suite_record_schema",
    "transcript_to_dict",
    "validate_suite_record",
    "wilson_interval",
]
