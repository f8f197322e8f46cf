"""Hand-edited and odd saved files: ``akit report`` exits 2 saying what is wrong.

Every case starts from a real suite folder (the example suite, copied) and spoils
one thing the way a person editing the file, or a broken disk, could. The report
must exit 2 with ``FILE: what is wrong`` and never a traceback, and must write
nothing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from artemiskit_cli._main import cli
from tests._hostile_values import ANY_JSON
from tests.reports._evidence import suite_json

if TYPE_CHECKING:
    from collections.abc import Callable


def report(*args: str) -> tuple[int, str]:
    """``akit report ARGS`` in-process; its exit code and standard error."""
    done = CliRunner().invoke(cli, ["report", *args])
    assert done.exception is None or isinstance(done.exception, SystemExit), (
        done.exception
    )
    return done.exit_code, done.stderr


def _edit(folder: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    suite = suite_json(folder)
    change(suite)
    path = folder / "suite.json"
    path.write_text(json.dumps(suite), "utf-8")
    return path


def _first(suite: dict[str, Any]) -> dict[str, Any]:
    workflow: dict[str, Any] = suite["workflows"][0]
    return workflow


def _drop_hat_key(suite: dict[str, Any]) -> None:
    del _first(suite)["pass_hat_k"]["2"]


def _extra_hat_key(suite: dict[str, Any]) -> None:
    _first(suite)["pass_hat_k"]["99"] = 0.5


def _null_interval(suite: dict[str, Any]) -> None:
    _first(suite)["pass_rate_interval"] = None


def _interval_misses_estimate(suite: dict[str, Any]) -> None:
    _first(suite)["pass_rate_interval"]["high"] = 0.1


def _rate_without_runs(suite: dict[str, Any]) -> None:
    _first(suite)["pass_rate"] = 0.25


def _one_token_count_null(suite: dict[str, Any]) -> None:
    suite["totals"]["output_tokens"] = None


def _counts_beyond_runs(suite: dict[str, Any]) -> None:
    _first(suite)["failed"] = 10**15


def _same_name_twice(suite: dict[str, Any]) -> None:
    suite["workflows"][1]["name"] = _first(suite)["name"]


def _unit(suite: dict[str, Any]) -> dict[str, Any]:
    unit: dict[str, Any] = suite["units"][0]
    return unit


def _unit_null_interval(suite: dict[str, Any]) -> None:
    _unit(suite)["pass_rate_interval"] = None


def _unit_inverted_interval(suite: dict[str, Any]) -> None:
    _unit(suite)["pass_rate_interval"].update(low=0.99, high=0.01)


def _unit_without_runs(suite: dict[str, Any]) -> None:
    _unit(suite)["runs"] = 0


def _unit_extra_pass_at_k(suite: dict[str, Any]) -> None:
    _unit(suite)["pass_at_k"]["99"] = 1.0


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (_unit_null_interval, "judged runs need a pass rate and an interval"),
        (_unit_inverted_interval, "$.units[0].pass_rate_interval: does not hold"),
        (_unit_without_runs, "$.units[0]: its counts do not add up to its runs"),
        (_unit_extra_pass_at_k, "$.units[0].pass_at_k: keys must be 1 to"),
        (_drop_hat_key, "pass_hat_k: keys must be 1 to 5"),
        (_extra_hat_key, "pass_hat_k: keys must be 1 to 5"),
        (_null_interval, "judged runs need a pass rate and an interval"),
        (_interval_misses_estimate, "does not hold the pass rate"),
        (_rate_without_runs, "is not passed / (passed + failed)"),
        (_one_token_count_null, "must both be null"),
        (_counts_beyond_runs, "counts more runs than it lists"),
        (_same_name_twice, "repeats an earlier workflow's name"),
    ],
)
def test_an_inconsistent_suite_record_is_refused(
    suite_copy: Path,
    tmp_path: Path,
    change: Callable[[dict[str, Any]], None],
    said: str,
) -> None:
    path = _edit(suite_copy, change)
    html, markdown = tmp_path / "r.html", tmp_path / "r.md"
    code, stderr = report(
        str(suite_copy), "--html", str(html), "--markdown", str(markdown)
    )
    assert code == 2, stderr
    assert f"{path}: $: invalid suite record: " in stderr
    assert said in stderr
    assert "Traceback" not in stderr
    assert not html.exists()
    assert not markdown.exists()


_HOSTILE_TEXT = {
    "nan": ('"pass_rate": NaN', "holds NaN, which is not a JSON number"),
    "infinity": ('"pass_rate": Infinity', "holds Infinity"),
    "overflow": ('"pass_rate": 1e400', "a number too large to represent"),
    "huge integer": ('"duration_ms": ' + "9" * 5000, "outside the 64-bit range"),
    "int64 overflow": ('"duration_ms": ' + str(2**63), "outside the 64-bit range"),
    "deep nesting": ('"extra": ' + "[" * 5000 + "]" * 5000, "nests deeper than"),
    "middling nesting": ('"extra": ' + "[" * 300 + "]" * 300, "nests deeper than"),
    "lone surrogate": ('"extra": "\\udc80"', "lone surrogate"),
}


@pytest.mark.parametrize("case", sorted(_HOSTILE_TEXT))
def test_json_that_is_not_strict_json_is_refused(
    suite_copy: Path, tmp_path: Path, case: str
) -> None:
    inserted, said = _HOSTILE_TEXT[case]
    path = suite_copy / "suite.json"
    text = path.read_text("utf-8")
    # Inserted as the first field of the first run entry, or before totals.
    anchor = '"duration_ms": ' if "duration_ms" in inserted else '"pass_rate": '
    if "extra" in inserted:
        anchor = '"totals": '
    before, found, after = text.partition(anchor)
    assert found
    rest = after.split(",", 1)[1] if anchor != '"totals": ' else anchor + after
    path.write_text(f"{before}{inserted}, {rest}", "utf-8")
    html, markdown = tmp_path / "r.html", tmp_path / "r.md"
    code, stderr = report(
        str(suite_copy), "--html", str(html), "--markdown", str(markdown)
    )
    assert code == 2, stderr
    assert f"{path}" in stderr
    assert said in stderr
    assert "Traceback" not in stderr
    assert not html.exists()
    assert not markdown.exists()


def test_a_record_file_with_nan_is_refused(suite_copy: Path) -> None:
    record = suite_copy / "runs" / "answer" / "001.record.json"
    data = json.loads(record.read_text("utf-8"))
    data["execution"]["duration_ms"] = float("nan")
    record.write_text(json.dumps(data), "utf-8")
    code, stderr = report(str(suite_copy))
    assert code == 2, stderr
    assert f"{record}: $: holds NaN" in stderr


def test_a_record_symlink_loop_is_refused(suite_copy: Path) -> None:
    record = suite_copy / "runs" / "answer" / "002.record.json"
    loop = suite_copy / "runs" / "answer" / "loop.json"
    record.unlink()
    os.symlink(loop, record)
    os.symlink(record, loop)
    code, stderr = report(str(suite_copy))
    assert code == 2, stderr
    assert f"{record}: $: a symbolic link loop, not a file" in stderr
    assert "Traceback" not in stderr


def test_a_given_path_in_a_symlink_loop_is_refused(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    os.symlink(second, first)
    os.symlink(first, second)
    code, stderr = report(str(first))
    assert code == 2, stderr
    assert f"{first}: $: a symbolic link loop, not a file" in stderr


def test_an_interval_off_by_an_ulp_from_older_versions_still_renders(
    suite_copy: Path, tmp_path: Path
) -> None:
    # Earlier versions wrote high = 0.9999999999999998 for 10/10; such files
    # exist and must render: the error bar is drawn from 0, never negative.
    def all_passed(suite: dict[str, Any]) -> None:
        for workflow in suite["workflows"]:
            if workflow["pass_rate"] == 1.0:
                workflow["pass_rate_interval"]["high"] = 0.9999999999999998
                return
        raise AssertionError("no workflow passed every run")

    _edit(suite_copy, all_passed)
    html = tmp_path / "r.html"
    code, stderr = report(str(suite_copy), "--html", str(html))
    assert code == 0, stderr
    assert html.read_text("utf-8").count("<svg") >= 2


_EXAMPLES = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@_EXAMPLES
@given(
    value=ANY_JSON,
    where=st.sampled_from(
        ["pass_rate", "pass_rate_interval", "pass_hat_k", "runs", "failure_reasons"]
    ),
)
def test_any_value_in_a_workflow_entry_ends_in_exit_0_or_2(
    suite_copy: Path, value: object, where: str
) -> None:
    original = (suite_copy / "suite.json").read_text("utf-8")
    try:
        _edit(suite_copy, lambda suite: _first(suite).__setitem__(where, value))
        code, stderr = report(str(suite_copy))
    finally:
        (suite_copy / "suite.json").write_text(original, "utf-8")
    assert code in (0, 2), stderr
    assert "Traceback" not in stderr


_RECORD_FIELDS = [
    ("execution", "reason"),
    ("execution", "duration_ms"),
    ("budget", "used"),
    ("budget", "limits"),
    ("timeline", "entries"),
    ("task_verification", "requirements"),
    ("recovery", "attempt_number"),
    ("workflow", "name"),
]


@_EXAMPLES
@given(
    value=ANY_JSON,
    where=st.sampled_from(_RECORD_FIELDS),
)
def test_any_value_in_a_record_ends_in_exit_0_or_2(
    suite_copy: Path, value: object, where: tuple[str, str]
) -> None:
    record = suite_copy / "runs" / "answer" / "001.record.json"
    original = record.read_text("utf-8")
    data = json.loads(original)
    data[where[0]][where[1]] = value
    try:
        record.write_text(json.dumps(data), "utf-8")
        code, stderr = report(str(suite_copy))
        alone, alone_stderr = report(str(record))
    finally:
        record.write_text(original, "utf-8")
    assert code in (0, 2), stderr
    assert alone in (0, 2), alone_stderr
