"""Property tests time the code, never the machine, locally as in CI.

Outside CI the suite loads its own Hypothesis profile (``tests/conftest.py``):
Hypothesis' defaults without a per-example deadline or the too-slow health check,
so a loaded machine never fails a property test that CI's ``ci`` profile passes.
Under CI (the ``CI`` variable set) Hypothesis' own ``ci`` profile stays.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

#: Prints the profile loaded once the suite's configuration is imported.
_PROBE = (
    "import tests.conftest\n"
    "from hypothesis import settings\n"
    "current = settings()\n"
    "print(settings.get_current_profile_name(), current.deadline, "
    "current.max_examples, current.derandomize)\n"
)


def test_this_run_has_no_deadline_and_the_default_example_counts() -> None:
    current = settings()  # the loaded profile's values
    assert current.deadline is None
    assert HealthCheck.too_slow in current.suppress_health_check
    assert current.max_examples == settings.get_profile("default").max_examples


@pytest.mark.parametrize(
    ("ci", "expected"),
    [(None, "artemiskit-local None 100 False"), ("true", "ci None 100 True")],
    ids=["local", "ci"],
)
def test_the_profile_is_ours_locally_and_hypothesis_ci_under_ci(
    ci: str | None, expected: str
) -> None:
    # A bare environment: no variable by which Hypothesis detects a CI.
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT)}
    if ci is not None:
        env["CI"] = ci
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == expected
