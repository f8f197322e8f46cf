"""The plugin's outcome mapping, with pytest run in this process.

`tests/pytest_plugin/test_plugin.py` runs pytest in a child process, as a user
would; these run it in-process (``runpytest_inprocess``) so that mutation testing,
which cannot reach a child, checks the plugin's decisions too: which item passes,
fails or is a usage error, and what its failure text says.
"""

from __future__ import annotations

import argparse
import hashlib
from typing import TYPE_CHECKING

import pytest

from artemiskit_pytest.plugin import (
    _count,
    _folder_name,
    _folder_names,
    _printable,
    _rate,
    _repeat,
)
from tests.pytest_plugin._projects import BAD, GOOD, SHORT, add_workflow, leaks

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.timeout(300)


def _text(result: pytest.RunResult) -> str:
    return "\n".join([*result.outlines, *result.errlines])


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    """``good`` always passes, ``bad`` always fails."""
    workflows = pytester.path / "workflows"
    add_workflow(workflows / "good", "good", [GOOD])
    add_workflow(workflows / "bad", "bad", [BAD])
    return workflows


def test_a_passing_and_a_failing_workflow(
    pytester: pytest.Pytester, project: Path
) -> None:
    result = pytester.runpytest_inprocess("--akit", "workflows", "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*workflows/bad/workflow.yaml::bad FAILED*",
            "*workflows/good/workflow.yaml::good PASSED*",
        ]
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = _text(result)
    report = text.split(" workflow bad _", 1)[1].split("\n", 1)[1].split("=====")[0]
    assert [line for line in report.strip().splitlines() if line] == [
        "why: answer-is-42 (missing_content) × 1",
        "workflow 'bad': pass rate 0% (0/1), min pass rate 1, exit code 8",
        "  run 1: failed, why: answer-is-42 (missing_content); execution completed "
        "(all_turns_completed), verification failed, exit code 8",
        "    requirement answer-is-42: failed (missing_content)",
    ]
    assert "Traceback" not in text
    assert not leaks(text)


def test_the_pass_rate_threshold_and_errored_tolerance_decide(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "wf" / "flaky", "flaky", [GOOD, BAD])
    add_workflow(pytester.path / "wf" / "shaky", "shaky", [GOOD, SHORT])
    strict = pytester.runpytest_inprocess("--akit", "wf", "--akit-repeat", "2")
    strict.assert_outcomes(failed=2)
    lenient = pytester.runpytest_inprocess(
        "--akit",
        "wf",
        "--akit-repeat",
        "2",
        "--akit-min-pass-rate",
        "0.5",
        "--akit-max-errored",
        "1",
    )
    lenient.assert_outcomes(passed=2)
    only_rate = pytester.runpytest_inprocess(
        "--akit", "wf", "--akit-repeat", "2", "--akit-min-pass-rate", "0.5"
    )
    only_rate.assert_outcomes(passed=1, failed=1)
    only_rate.stdout.fnmatch_lines(
        ["workflow 'shaky': pass rate 100% (1/1), 1 errored, 0 unavailable*"]
    )


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        (
            "--akit-repeat",
            "0",
            "*--akit-repeat: must be a whole number from 1 to 10000*",
        ),
        ("--akit-min-pass-rate", "1.5", "*--akit-min-pass-rate: must be a number*"),
        ("--akit-max-errored", "-1", "*--akit-max-errored: must be a whole number*"),
    ],
)
def test_bad_option_values_are_usage_errors(
    pytester: pytest.Pytester, project: Path, option: str, value: str, message: str
) -> None:
    result = pytester.runpytest_inprocess("--akit", "workflows", option, value)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_option_values_at_their_bounds() -> None:
    assert [_repeat(text) for text in ("1", "10000", " 7 ")] == [1, 10_000, 7]
    assert [_rate(text) for text in ("0", "1", "0.25")] == [0.0, 1.0, 0.25]
    assert [_count(text) for text in ("0", "3")] == [0, 3]
    refused = [
        (_repeat, "0", "must be a whole number from 1 to 10000"),
        (_repeat, "10001", "must be a whole number from 1 to 10000"),
        (_repeat, "x", "must be a whole number from 1 to 10000"),
        (_rate, "-0.01", "must be a number from 0 to 1"),
        (_rate, "1.01", "must be a number from 0 to 1"),
        (_rate, "x", "must be a number from 0 to 1"),
        (_rate, "nan", "must be a number from 0 to 1"),
        (_count, "-1", "must be a whole number, 0 or more"),
        (_count, "x", "must be a whole number, 0 or more"),
    ]
    for parse, text, message in refused:
        with pytest.raises(argparse.ArgumentTypeError) as caught:
            parse(text)
        assert str(caught.value) == message


def _digest(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()[:8]


def test_output_folder_names_are_plain_or_safe_and_distinct() -> None:
    assert _folder_name("good") == "good"
    assert _folder_name("a.b_c-1") == "a.b_c-1"
    assert _folder_name("x" * 100) == "x" * 100
    assert _folder_name("x" * 101) == f"{'x' * 40}-{_digest('x' * 101)}"
    assert _folder_name("..") == f"workflow-{_digest('..')}"
    assert _folder_name(".") == f"workflow-{_digest('.')}"
    assert _folder_name("-x") == f"x-{_digest('-x')}"
    assert _folder_name("a b/../c") == f"a-b-..-c-{_digest('a b/../c')}"
    assert _folder_name("..hidden.") == f"hidden-{_digest('..hidden.')}"
    assert _folder_names(["Good", "good", "good", "x y"]) == {
        "Good": "Good",
        "good": "good-2",
        "x y": f"x-y-{_digest('x y')}",
    }
    safe = f"x-y-{_digest('x y')}"
    assert _folder_names([safe, "x y", "X y"]) == {
        safe: safe,
        "x y": f"{safe}-2",
        "X y": f"X-y-{_digest('X y')}",
    }
    assert _printable("a\x1b[31mb\tc") == "a\\x1b[31mb\\tc"
    # Printable characters stay as they are, a backslash and quotes too.
    assert _printable("a\\b\"'") == "a\\b\"'"
