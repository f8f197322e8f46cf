"""``pytest --akit PATH --akit-replay DIR``: items answered from cassettes (SPEC 22).

The cassettes are recorded by ``akit workflow run ... --record-cassettes DIR``;
then the scripts are removed, so only the cassettes can answer, and pytest runs
the workflows as items with the same verdicts and without leaking content.
"""

from __future__ import annotations

import pytest

from tests._cli import akit
from tests.pytest_plugin._projects import BAD, GOOD, add_workflow, leaks

pytestmark = pytest.mark.timeout(300)


def test_items_replay_their_recorded_cassettes(pytester: pytest.Pytester) -> None:
    workflows = pytester.path / "workflows"
    add_workflow(workflows / "good", "good", [GOOD])
    add_workflow(workflows / "bad", "bad", [BAD])
    recorded = akit(
        "workflow",
        "run",
        "workflows",
        "--output-dir",
        "out",
        "--record-cassettes",
        "cassettes",
        "--min-pass-rate",
        "0",
        cwd=pytester.path,
    )
    assert recorded.returncode == 0, recorded.stderr
    for script in workflows.rglob("*.script.yaml"):
        script.unlink()
    result = pytester.runpytest_subprocess(
        "--akit", "workflows", "--akit-replay", "cassettes", "-v"
    )
    result.assert_outcomes(passed=1, failed=1)
    text = "\n".join([*result.outlines, *result.errlines])
    assert "answer-is-42 (missing_content)" in text
    assert not leaks(text)


def test_a_missing_replay_folder_is_a_usage_error(pytester: pytest.Pytester) -> None:
    add_workflow(pytester.path / "workflows" / "good", "good", [GOOD])
    result = pytester.runpytest_subprocess(
        "--akit", "workflows", "--akit-replay", "nowhere"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--akit-replay nowhere: no such folder*"])


def test_a_missing_cassette_fails_the_item_with_the_reason(
    pytester: pytest.Pytester,
) -> None:
    add_workflow(pytester.path / "workflows" / "good", "good", [GOOD])
    (pytester.path / "cassettes").mkdir()
    result = pytester.runpytest_subprocess(
        "--akit", "workflows", "--akit-replay", "cassettes"
    )
    result.assert_outcomes(failed=1)
    text = "\n".join([*result.outlines, *result.errlines])
    assert "no such file" in text
    assert "Traceback" not in text
