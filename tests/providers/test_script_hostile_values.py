"""Any legal YAML value, anywhere in a scripted provider's script, is located.

Huge integers (in any base) and lone surrogate escapes at every value and key
position of a script (SPEC 11): `parse_script` raises nothing but `WorkflowError`,
and each problem has a line and column.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, strategies as st

from artemiskit import WorkflowError
from artemiskit.providers import parse_script
from tests._builders import PASSING_SCRIPT
from tests._hostile_values import HOSTILE, KEY, SETTINGS, hostile, located, positions

SCRIPT: dict[str, Any] = {"version": 1, "responses": PASSING_SCRIPT}


@SETTINGS
@given(st.sampled_from(positions(SCRIPT)), st.sampled_from(HOSTILE))
def test_script(position: tuple[Any, ...], raw: str) -> None:
    is_key = position[-1] is KEY
    assume(not is_key or raw.startswith('"'))
    path = position[:-1] if is_key else position
    if raw.startswith('"') and "arguments" in path[:-1] + (() if is_key else path[-1:]):
        # Tool-call arguments are the model's words: a lone surrogate there plays a
        # hostile model and is denied at admission (tests/engine/test_admission.py).
        parse_script(hostile(SCRIPT, position, raw), source="s.yaml")
        return
    with pytest.raises(WorkflowError, match=r"s.yaml: invalid script") as caught:
        parse_script(hostile(SCRIPT, position, raw), source="s.yaml")
    located(caught.value.problems)
