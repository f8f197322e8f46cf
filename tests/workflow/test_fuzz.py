"""Hostile and mutated YAML never escapes as anything but `WorkflowError`."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from artemiskit import WorkflowError
from artemiskit.workflow import Workflow, parse_agent_workflow, validate_agent_workflow
from tests._hostile_values import ANY_JSON
from tests.workflow._cases import BASE, dump

ROOT = Path(__file__).resolve().parents[2]
SEEDS = [dump(BASE)] + [
    p.read_text("utf-8") for p in sorted((ROOT / "examples").rglob("workflow.yaml"))
]
TOKENS = [
    "!!str ",
    "!!python/object:os.system ",
    "!x ",
    "&a ",
    "*a",
    "<<: ",
    "<<: *a\n",
    "- ",
    ": ",
    "? ",
    "{",
    "}",
    "[",
    "]",
    ",",
    "\t",
    "\x00",
    "\x1b",
    "'",
    '"',
    "#",
    "%YAML 1.1\n",
    "%TAG ! tag:x,2000:\n",
    "---\n",
    "...\n",
    "|\n",
    ">-\n",
    "\\",
    "\ufeff",
    "1e999",
    "-.inf",
    ".nan",
    "0x",
    "null",
    "true",
    "~",
    "  ",
    "\n",
    "${HOME}",
    "\ud800",
    "version: 1\n",
    "name: x\n",
    "[" * 80,
]
JSON = ANY_JSON


def check(text: str) -> None:
    """Parsing either succeeds or raises `WorkflowError` listing its problems."""
    problems = validate_agent_workflow(text, source="fuzz.yaml")
    if problems:
        with pytest.raises(WorkflowError) as caught:
            parse_agent_workflow(text, source="fuzz.yaml")
        assert list(caught.value.problems) == problems
    else:
        assert isinstance(parse_agent_workflow(text), Workflow)


@st.composite
def text_mutations(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        lines = text.splitlines(keepends=True) or [""]
        op = draw(st.sampled_from(["insert", "delete", "duplicate", "replace", "swap"]))
        at = draw(st.integers(0, len(lines) - 1))
        if op == "insert":
            pos = draw(st.integers(0, len(text)))
            token = draw(st.sampled_from(TOKENS) | st.text(max_size=6))
            text = text[:pos] + token + text[pos:]
        elif op == "delete":
            del lines[at]
            text = "".join(lines)
        elif op == "duplicate":
            lines.insert(at, lines[at])
            text = "".join(lines)
        elif op == "replace":
            start = draw(st.integers(0, len(text)))
            end = draw(st.integers(start, min(len(text), start + 12)))
            text = text[:start] + draw(st.text(max_size=8)) + text[end:]
        else:
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
            text = "".join(lines)
    return text


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


@st.composite
def data_mutations(draw: st.DrawFn) -> str:
    data = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent: Any = data
        for part in path[:-1]:
            parent = parent[part]
        if draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(JSON)
    return dump(data)


SETTINGS = settings(
    max_examples=250,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@SETTINGS
@given(text_mutations())
def test_mutated_text(text: str) -> None:
    check(text)


@SETTINGS
@given(data_mutations())
def test_mutated_data(text: str) -> None:
    check(text)


@SETTINGS
@given(st.text(max_size=200))
def test_random_text(text: str) -> None:
    check(text)


@SETTINGS
@given(st.binary(max_size=200))
def test_random_bytes(raw: bytes) -> None:
    check(raw.decode("utf-8", "replace"))
    check(raw.decode("latin-1"))


@SETTINGS
@given(JSON)
def test_random_documents(data: Any) -> None:
    check(dump(data))
    check(dump({**BASE, "outcomes": [data], "faults": data}))
