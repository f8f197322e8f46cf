"""Several suites in one report (`merge_suites`): totals added, usage honest."""

from __future__ import annotations

from typing import Any

import pytest

from artemiskit import WorkflowError
from artemiskit.reports._merge import merge_suites


def _suite(
    suite_id: str,
    workflows: list[str],
    *,
    tokens: tuple[int, int] | None,
    measurement: str,
    started: str,
    finished: str | None,
) -> dict[str, Any]:
    counts = dict.fromkeys(
        (
            "runs_planned",
            "runs_finished",
            "runs_not_started",
            "runs_lost",
            "passed",
            "failed",
            "errored",
            "unavailable",
            "model_requests",
            "tool_calls",
            "duration_ms",
        ),
        1 if suite_id == "one" else 10,
    )
    return {
        "suite_id": suite_id,
        "started_at": started,
        "finished_at": finished,
        "status": "completed",
        "reason": "all_runs_finished",
        "exit_code": 0,
        "settings": {"repeat": 1},
        "totals": {
            **counts,
            "input_tokens": None if tokens is None else tokens[0],
            "output_tokens": None if tokens is None else tokens[1],
            "usage_measurement": measurement,
        },
        "workflows": [{"name": name} for name in workflows],
    }


def test_totals_add_up_and_tokens_are_summed_only_when_all_were_measured() -> None:
    one = _suite(
        "one",
        ["a"],
        tokens=(3, 4),
        measurement="provider_reported",
        started="2026-01-02T00:00:00Z",
        finished="2026-01-02T01:00:00Z",
    )
    two = _suite(
        "two",
        ["b", "c"],
        tokens=(30, 40),
        measurement="provider_reported",
        started="2026-01-01T00:00:00Z",
        finished="2026-01-03T00:00:00Z",
    )
    merged, sources = merge_suites([("1/suite.json", one), ("2/suite.json", two)])
    totals = merged["totals"]
    assert totals == {
        **{key: 11 for key in one["totals"] if key.startswith(("runs", "model"))},
        "passed": 11,
        "failed": 11,
        "errored": 11,
        "unavailable": 11,
        "tool_calls": 11,
        "duration_ms": 11,
        "input_tokens": 33,
        "output_tokens": 44,
        "usage_measurement": "provider_reported",
    }
    assert (merged["started_at"], merged["finished_at"]) == (
        "2026-01-01T00:00:00Z",
        "2026-01-03T00:00:00Z",
    )
    assert [w["name"] for w in merged["workflows"]] == ["a", "b", "c"]
    for key in ("suite_id", "status", "reason", "settings", "exit_code"):
        assert merged[key] is None
    assert sources == (
        {
            "suite_id": "one",
            "status": "completed",
            "reason": "all_runs_finished",
            "exit_code": 0,
            "workflows": ["a"],
        },
        {
            "suite_id": "two",
            "status": "completed",
            "reason": "all_runs_finished",
            "exit_code": 0,
            "workflows": ["b", "c"],
        },
    )


@pytest.mark.parametrize(
    ("first", "second", "measurement"),
    [
        ((None, "not_reported"), (None, "not_reported"), "not_reported"),
        (((3, 4), "provider_reported"), (None, "not_reported"), "partial"),
        ((None, "not_reported"), ((3, 4), "provider_reported"), "partial"),
    ],
)
def test_tokens_unmeasured_in_one_suite_are_unmeasured_in_the_report(
    first: tuple[tuple[int, int] | None, str],
    second: tuple[tuple[int, int] | None, str],
    measurement: str,
) -> None:
    suites = [
        (
            f"{index}/suite.json",
            _suite(
                name,
                [name],
                tokens=tokens,
                measurement=kind,
                started="2026-01-01T00:00:00Z",
                finished=None if index else "2026-01-01T00:00:01Z",
            ),
        )
        for index, (name, (tokens, kind)) in enumerate(
            (("one", first), ("two", second))
        )
    ]
    merged, _ = merge_suites(suites)
    totals = merged["totals"]
    assert (totals["input_tokens"], totals["output_tokens"]) == (None, None)
    assert totals["usage_measurement"] == measurement
    assert merged["finished_at"] is None


def test_a_workflow_in_two_suites_is_refused_with_both_places() -> None:
    kwargs: dict[str, Any] = {
        "tokens": None,
        "measurement": "not_reported",
        "started": "2026-01-01T00:00:00Z",
        "finished": None,
    }
    with pytest.raises(WorkflowError) as caught:
        merge_suites(
            [
                ("first/suite.json", _suite("one", ["a", "b"], **kwargs)),
                ("second/suite.json", _suite("two", ["c", "b"], **kwargs)),
            ]
        )
    error = caught.value
    assert error.reason == "workflow_in_two_suites"
    assert error.message == (
        "several suites make one report only when their workflows differ; "
        "compare two suites with `akit report compare`"
    )
    [problem] = error.problems
    assert (problem.source, problem.message) == (
        "second/suite.json",
        "workflow 'b' is also in first/suite.json",
    )
