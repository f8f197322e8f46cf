"""``pytest --akit`` over a workflow with cases: one item per unit, ``--akit-case``."""

from __future__ import annotations

import shutil

import pytest

from tests.examples._blocks import ROOT

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def project(pytester: pytest.Pytester) -> None:
    """The datasets example (20 tickets, T-1007 routed wrong), as a workflow file."""
    folder = pytester.path / "workflows" / "triage"
    shutil.copytree(ROOT / "examples" / "datasets", folder)
    (folder / "triage.workflow.yaml").rename(folder / "workflow.yaml")
    (folder / "run.py").unlink()


def test_each_case_is_an_item(pytester: pytest.Pytester, project: None) -> None:
    result = pytester.runpytest_subprocess("--akit", "workflows", "-v")
    result.assert_outcomes(passed=19, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*workflow.yaml::ticket-triage[[]T-1001[]] PASSED*",
            "*workflow.yaml::ticket-triage[[]T-1007[]] FAILED*",
        ]
    )


def test_akit_case_keeps_only_those_cases(
    pytester: pytest.Pytester, project: None
) -> None:
    result = pytester.runpytest_subprocess(
        "--akit", "workflows", "--akit-case", "T-1003", "--akit-case", "T-1020"
    )
    result.assert_outcomes(passed=2)
    unknown = pytester.runpytest_subprocess(
        "--akit", "workflows", "--akit-case", "T-9999"
    )
    assert unknown.ret == pytest.ExitCode.USAGE_ERROR
    assert "'T-9999'" in "\n".join(unknown.errlines)
