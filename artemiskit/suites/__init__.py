"""Suites: many workflows, many repetitions, pass rates with their uncertainty.

`ArtemisKit.run_suite` / `ArtemisKit.create_suite_session` are the entry points;
this package holds the runner, the executors, the statistics, the suite record
(``suite.json``, validated against its shipped JSON Schema) and the CI exports.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit._common._statistics import (
        Interval as Interval,
        pass_at_k as pass_at_k,
        pass_hat_k as pass_hat_k,
        percentile as percentile,
        wilson_interval as wilson_interval,
    )
    from artemiskit.suites._cassettes import (
        SuiteCassettes as SuiteCassettes,
    )
    from artemiskit.suites._discovery import (
        SuiteWorkflow as SuiteWorkflow,
        discover_workflows as discover_workflows,
        is_workflow_file as is_workflow_file,
    )
    from artemiskit.suites._executor import (
        EXECUTOR_NAMES as EXECUTOR_NAMES,
        LocalExecutor as LocalExecutor,
        PlannedRun as PlannedRun,
        RunLost as RunLost,
        ShippedResult as ShippedResult,
        SuiteExecutor as SuiteExecutor,
        executor_named as executor_named,
    )
    from artemiskit.suites._exports import (
        junit_xml as junit_xml,
        markdown_summary as markdown_summary,
    )
    from artemiskit.suites._options import (
        SuiteKeywords as SuiteKeywords,
        SuiteOptions as SuiteOptions,
    )
    from artemiskit.suites._plan import (
        RepetitionPlan as RepetitionPlan,
        plan_repetitions as plan_repetitions,
        plan_suite as plan_suite,
    )
    from artemiskit.suites._processes import (
        ProcessExecutor as ProcessExecutor,
    )
    from artemiskit.suites._ray import (
        RayExecutor as RayExecutor,
    )
    from artemiskit.suites._record import (
        SUITE_SCHEMA as SUITE_SCHEMA,
        SUITE_SCHEMA_VERSION as SUITE_SCHEMA_VERSION,
        cause_text as cause_text,
        load_suite_record as load_suite_record,
        suite_record_schema as suite_record_schema,
        validate_suite_record as validate_suite_record,
    )
    from artemiskit.suites._runner import (
        SessionFactory as SessionFactory,
        SuiteEvent as SuiteEvent,
        SuiteResult as SuiteResult,
        SuiteRun as SuiteRun,
        SuiteSession as SuiteSession,
        SuiteSettings as SuiteSettings,
    )
    from artemiskit.suites._selection import (
        CaseSelection as CaseSelection,
    )
    from artemiskit.suites._shipping import (
        RemoteRun as RemoteRun,
    )
    from artemiskit.suites._targets import (
        SuiteTarget as SuiteTarget,
    )
    from artemiskit.suites._transcript import (
        TRANSCRIPT_SCHEMA as TRANSCRIPT_SCHEMA,
        transcript_to_dict as transcript_to_dict,
    )

_exports.export_lazily(globals())
