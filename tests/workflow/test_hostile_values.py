"""Any legal YAML value, anywhere, ends as a located typed problem (SPEC 11).

Huge integers (in any base) and lone surrogate escapes are put at every value and
key position of a workflow, a script and a configuration: the loaders raise nothing
but their typed errors, and each problem has a line and column.
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from artemiskit import ConfigError, WorkflowError
from artemiskit.config import parse_trusted_config
from artemiskit.providers import parse_script
from artemiskit.workflow import parse_agent_workflow, validate_agent_workflow
from tests._builders import PASSING_SCRIPT
from tests.workflow._cases import BASE

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit import Problem

MARK = "__HOSTILE__"
HOSTILE = [
    "0x" + "f" * 5000,
    "-0x" + "F_f" * 2000,
    "0o" + "7" * 6000,
    "0b" + "1" * 15000,
    "9" * 4301,
    "9" * 5000,
    '"\\ud800"',
    '"docs/\\udfff.md"',
    '"a\\ud800/b"',
]
SCRIPT: dict[str, Any] = {"version": 1, "responses": PASSING_SCRIPT}
CONFIG: dict[str, Any] = {
    "providers": {
        "local": {
            "type": "openai",
            "base_url": "http://127.0.0.1:8000/v1",
            "request_timeout_ms": 1000,
            "headers": {"X-Team": "evals"},
        },
        "replay": {"type": "scripted", "scripts_dir": "scripts"},
    },
    "sandbox": {"image": "img", "pids_limit": 64},
}


def _positions(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every value position (``(*path,)``) and key position (``(*path, KEY)``)."""
    found: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            found += [(*prefix, key), (*prefix, key, _KEY)]
            found += _positions(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.append((*prefix, index))
            found += _positions(value, (*prefix, index))
    return found


_KEY = object()


def _hostile(data: dict[str, Any], position: tuple[Any, ...], raw: str) -> str:
    """``data`` as JSON text (valid YAML) with ``raw`` at ``position``."""
    copied = copy.deepcopy(data)
    *parents, last = position
    if last is _KEY:
        *parents, last = parents
        parent: Any = copied
        for part in parents:
            parent = parent[part]
        parent[MARK] = parent.pop(last)
    else:
        parent = copied
        for part in parents:
            parent = parent[part]
        parent[last] = MARK
    return json.dumps(copied, indent=1).replace(json.dumps(MARK), raw)


def _located(problems: Sequence[Problem]) -> None:
    assert problems
    assert all(p.line is not None and p.column is not None for p in problems)


SETTINGS = settings(max_examples=150, deadline=None, database=None)


@SETTINGS
@given(st.sampled_from(_positions(BASE)), st.sampled_from(HOSTILE))
def test_workflow(position: tuple[Any, ...], raw: str) -> None:
    assume(position[-1] is not _KEY or raw.startswith('"'))  # keys are strings
    text = _hostile(BASE, position, raw)
    _located(validate_agent_workflow(text, source="w.yaml"))
    with pytest.raises(WorkflowError, match=r"w.yaml: invalid workflow"):
        parse_agent_workflow(text, source="w.yaml")


@SETTINGS
@given(st.sampled_from(_positions(SCRIPT)), st.sampled_from(HOSTILE))
def test_script(position: tuple[Any, ...], raw: str) -> None:
    is_key = position[-1] is _KEY
    assume(not is_key or raw.startswith('"'))
    path = position[:-1] if is_key else position
    if raw.startswith('"') and "arguments" in path[:-1] + (() if is_key else path[-1:]):
        # Tool-call arguments are the model's words: a lone surrogate there plays a
        # hostile model and is denied at admission (tests/engine/test_admission.py).
        parse_script(_hostile(SCRIPT, position, raw), source="s.yaml")
        return
    with pytest.raises(WorkflowError, match=r"s.yaml: invalid script") as caught:
        parse_script(_hostile(SCRIPT, position, raw), source="s.yaml")
    _located(caught.value.problems)


@SETTINGS
@given(st.sampled_from(_positions(CONFIG)), st.sampled_from(HOSTILE))
def test_configuration(position: tuple[Any, ...], raw: str) -> None:
    assume(position[-1] is not _KEY or raw.startswith('"'))
    with pytest.raises(ConfigError, match=r"c.yaml: invalid configuration") as caught:
        parse_trusted_config(_hostile(CONFIG, position, raw), source="c.yaml")
    _located(caught.value.problems)
