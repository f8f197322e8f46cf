"""Any legal YAML value, anywhere in a workflow, ends as a located typed problem.

Huge integers (in any base) and lone surrogate escapes are put at every value and
key position of a workflow (SPEC 11); the loader raises nothing but `WorkflowError`,
and each problem has a line and column. The script and the configuration have the
same test in `tests/providers/` and `tests/config/`.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, strategies as st

from artemiskit import WorkflowError
from artemiskit.workflow import parse_agent_workflow, validate_agent_workflow
from tests._hostile_values import HOSTILE, KEY, SETTINGS, hostile, located, positions
from tests.workflow._cases import BASE


@SETTINGS
@given(st.sampled_from(positions(BASE)), st.sampled_from(HOSTILE))
def test_workflow(position: tuple[Any, ...], raw: str) -> None:
    assume(position[-1] is not KEY or raw.startswith('"'))  # keys are strings
    text = hostile(BASE, position, raw)
    located(validate_agent_workflow(text, source="w.yaml"))
    with pytest.raises(WorkflowError, match=r"w.yaml: invalid workflow"):
        parse_agent_workflow(text, source="w.yaml")
