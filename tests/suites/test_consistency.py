"""A saved suite record whose numbers disagree is refused, naming the rule and its path.

Each case breaks one rule of `artemiskit.suites._consistency` in a golden suite
record and reads it back through the public reader: the refusal names the JSON
path and the rule exactly, with ``inconsistent_suite_record``; the unchanged
records are read.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import WorkflowError
from artemiskit._common._converter import CONVERTER
from artemiskit.suites import suite_record_from_dict

if TYPE_CHECKING:
    from collections.abc import Callable

GOLDEN = Path(__file__).parent / "fixtures" / "golden"


def _golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (GOLDEN / f"{name}.suite.json").read_text("utf-8")
    )
    return data


def _set(*steps: Any) -> Callable[[dict[str, Any]], None]:
    """Set the value at ``steps[:-1]`` (keys and indexes) to ``steps[-1]``."""
    *path, value = steps

    def change(data: dict[str, Any]) -> None:
        place: Any = data
        for step in path[:-1]:
            place = place[step]
        place[path[-1]] = value

    return change


def _both(
    *changes: Callable[[dict[str, Any]], None],
) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        for one in changes:
            one(data)

    return change


def _drop(*path: str | int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        place: Any = data
        for step in path[:-1]:
            place = place[step]
        del place[path[-1]]

    return change


def _no_units(data: dict[str, Any]) -> None:
    data["units"] = []


def _second_run_repeats_the_first(data: dict[str, Any]) -> None:
    runs = data["workflows"][0]["runs"]
    runs[1]["repetition"] = runs[0]["repetition"]


def _unit_judges_nothing(data: dict[str, Any]) -> None:
    unit = data["units"][0]
    unit.update(passed=0, failed=0, unavailable=unit["runs"], pass_at_k={})
    unit["pass_hat_k"] = {}


def _workflow_judges_nothing(data: dict[str, Any]) -> None:
    workflow = data["workflows"][0]
    workflow.update(passed=0, failed=0, unavailable=4, pass_at_k={}, pass_hat_k={})


WILSON = {"low": 0.2, "high": 0.9, "method": "wilson", "confidence": 0.95}

CASES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    (
        "plain",
        _set("totals", "output_tokens", None),
        "$.totals: input_tokens and output_tokens must both be null",
    ),
    (
        "plain",
        _set("workflows", 1, "name", "flaky"),
        "$.workflows[1].name: repeats an earlier workflow's name",
    ),
    (
        "plain",
        _second_run_repeats_the_first,
        "$.workflows[0].runs: a repetition (of a case) is listed twice",
    ),
    (
        "plain",
        _set("workflows", 0, "runs", 2, "output_tokens", None),
        "$.workflows[0].runs: input_tokens and output_tokens must both be null",
    ),
    (
        "plain",
        _set("workflows", 0, "unavailable", 1),
        "$.workflows[0]: counts more runs than it lists",
    ),
    (
        "plain",
        _set("workflows", 0, "errored", 1),
        "$.workflows[0].errored: is not the sum of its units'",
    ),
    (
        "plain",
        _both(_no_units, _workflow_judges_nothing),
        "$.workflows[0]: a pass rate and interval without judged runs",
    ),
    (
        "plain",
        _set("workflows", 0, "pass_rate_interval", None),
        "$.workflows[0]: judged runs need a pass rate and an interval",
    ),
    (
        "plain",
        _set("workflows", 0, "pass_rate", None),
        "$.workflows[0]: judged runs need a pass rate and an interval",
    ),
    (
        "plain",
        _both(
            _set("workflows", 0, "pass_rate", 0.6),
            _set("workflows", 0, "pass_rate_interval", WILSON),
        ),
        "$.workflows[0].pass_rate: is not passed / (passed + failed)",
    ),
    (
        "cases",
        _set("workflows", 0, "pass_rate", 0.5),
        "$.workflows[0].pass_rate: is not the mean of its units' pass rates",
    ),
    (
        "plain",
        _set("workflows", 0, "pass_rate_interval", {**WILSON, "high": 0.4}),
        "$.workflows[0].pass_rate_interval: does not hold the pass rate",
    ),
    (
        "plain",
        _drop("workflows", 0, "pass_at_k", "1"),
        "$.workflows[0].pass_at_k: keys must be 1 to 4 (the judged runs)",
    ),
    (
        "plain",
        _set("workflows", 0, "pass_hat_k", "5", 0.0),
        "$.workflows[0].pass_hat_k: keys must be 1 to 4 (the judged runs)",
    ),
    (
        "plain",
        _set("units", 1, "runs", 5),
        "$.units[1]: its counts do not add up to its runs",
    ),
    (
        "plain",
        _unit_judges_nothing,
        "$.units[0]: a pass rate and interval without judged runs",
    ),
    (
        "plain",
        _set("units", 0, "pass_rate_interval", None),
        "$.units[0]: judged runs need a pass rate and an interval",
    ),
    (
        "plain",
        _set("units", 0, "pass_rate", None),
        "$.units[0]: judged runs need a pass rate and an interval",
    ),
    (
        "plain",
        _both(
            _set("units", 0, "pass_rate", 0.6),
            _set("units", 0, "pass_rate_interval", WILSON),
        ),
        "$.units[0].pass_rate: is not passed / (passed + failed)",
    ),
    (
        "plain",
        _set("units", 0, "pass_rate_interval", {**WILSON, "low": 0.6}),
        "$.units[0].pass_rate_interval: does not hold the pass rate",
    ),
    (
        "plain",
        _drop("units", 1, "pass_at_k", "4"),
        "$.units[1].pass_at_k: keys must be 1 to 4 (the judged runs)",
    ),
    (
        "plain",
        _set("units", 1, "pass_hat_k", "5", 1.0),
        "$.units[1].pass_hat_k: keys must be 1 to 4 (the judged runs)",
    ),
]


@pytest.mark.parametrize(("golden", "change", "said"), CASES)
def test_each_disagreement_is_refused_with_its_path_and_rule(
    golden: str, change: Callable[[dict[str, Any]], None], said: str
) -> None:
    data = _golden(golden)
    change(data)
    with pytest.raises(WorkflowError) as caught:
        suite_record_from_dict(data)
    assert str(caught.value) == f"invalid suite record: {said}"
    assert caught.value.reason == "inconsistent_suite_record"


@pytest.mark.parametrize("golden", ["plain", "cases", "matrix"])
def test_records_whose_numbers_agree_are_read(golden: str) -> None:
    data = _golden(golden)
    record = suite_record_from_dict(copy.deepcopy(data))
    assert [w.name for w in record.workflows] == [w["name"] for w in data["workflows"]]
    if golden != "cases":  # a Wilson rate needs no unit to be checked against
        _no_units(data)
        assert len(suite_record_from_dict(data).workflows) == len(data["workflows"])


def _as_version_1(suite: dict[str, Any]) -> dict[str, Any]:
    """``suite`` as a version-1 suite.json would have it (no units, no verdicts)."""
    old = {k: v for k, v in suite.items() if k not in ("units", "targets")}
    old["schema_version"] = 1
    old["settings"] = {
        k: v
        for k, v in suite["settings"].items()
        if k not in ("max_errored", "gate", "cases", "targets")
    }
    old["totals"] = {k: v for k, v in suite["totals"].items() if k != "errored"}
    dropped = {"target", "errored", "pass_rate_range", "causes"}
    old["workflows"] = [
        {
            **{k: v for k, v in w.items() if k not in dropped},
            "runs": [
                {k: v for k, v in run.items() if k not in ("verdict", "why")}
                for run in w["runs"]
            ],
        }
        for w in suite["workflows"]
    ]
    return old


def test_a_migrated_version_1_record_agrees_with_itself() -> None:
    """Each workflow of a version-1 record becomes one unit with its numbers."""
    migrated = suite_record_from_dict(_as_version_1(_golden("plain")))
    assert migrated.schema_version == 2
    for workflow, unit in zip(migrated.workflows, migrated.units, strict=True):
        assert unit.workflow == workflow.name
        assert (unit.runs, unit.passed, unit.failed) == (
            len(workflow.runs),
            workflow.passed,
            workflow.failed,
        )
        assert unit.pass_rate == workflow.pass_rate
        assert unit.pass_rate_interval == workflow.pass_rate_interval
        assert (unit.pass_at_k, unit.pass_hat_k) == (
            workflow.pass_at_k,
            workflow.pass_hat_k,
        )
    # read again as the version-2 record it now is, every rule holds
    again = suite_record_from_dict(CONVERTER.unstructure(migrated))
    assert again == migrated
