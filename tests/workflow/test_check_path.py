"""One set of rules: `read_agent_workflow_data` and the loaders agree on every document.

``akit scenario validate`` checks a workflow without building it (no model classes,
no cattrs, the built-in tools read from a generated table); `read_agent_workflow`,
which every run goes through, checks it against the tool catalogue and structures
it. Both must accept and refuse the same documents with the same problems: every
workflow of examples/, every rule of test_invalid_workflows, hostile values and
mutated documents.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import assume, given, strategies as st

from artemiskit import WorkflowError
from artemiskit.tools import CATALOGUE
from artemiskit.workflow import (
    read_agent_workflow,
    read_agent_workflow_data,
    read_case_workflows,
)
from artemiskit.workflow._validation import BUILTIN_DECLARATIONS
from examples.custom_tool.order_tools import TOOLS
from tests._hostile_values import HOSTILE, KEY, SETTINGS, hostile, positions
from tests.workflow._cases import BASE
from tests.workflow.test_fuzz import data_mutations, text_mutations
from tests.workflow.test_invalid_workflows import CASES

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit import Problem, Tool

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(
    path
    for pattern in ("workflow.yaml", "*.workflow.yaml")
    for path in (ROOT / "examples").rglob(pattern)
)


def _problems(call: Any, path: Path, tools: Sequence[Tool]) -> list[Problem] | None:
    """The problems ``call`` raises for ``path``, or ``None`` when it accepts it."""
    try:
        call(path, tools=tools)
    except WorkflowError as exc:
        return list(exc.problems)
    return None


def _agree(path: Path, tools: Sequence[Tool] = ()) -> list[Problem] | None:
    checked = _problems(read_agent_workflow_data, path, tools)
    loaded = _problems(_read, path, tools)
    assert checked == loaded
    return checked


def _read(path: Path, *, tools: Sequence[Tool]) -> None:
    """`read_agent_workflow`, or for a workflow with cases `read_case_workflows`."""
    try:
        read_agent_workflow(path, tools=tools)
    except WorkflowError as exc:
        if exc.reason != "has_cases":
            raise
        read_case_workflows(path, tools=tools)


def _agree_on_text(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "w.yaml"
        path.write_text(text, "utf-8", errors="surrogatepass")
        _agree(path)


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_is_accepted_by_both(path: Path) -> None:
    tools = TOOLS if path.parent.name == "custom_tool" else ()
    assert _agree(path, tools) is None


def test_an_unregistered_tool_is_refused_by_both_with_the_hint() -> None:
    problems = _agree(ROOT / "examples" / "custom_tool" / "workflow.yaml")
    assert problems
    assert all("--tools MODULE:ATTR" in p.message for p in problems)


@pytest.mark.parametrize(
    ("text", "path", "rule"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_every_invalid_case_is_refused_by_both(
    tmp_path: Path, text: str, path: str, rule: str
) -> None:
    del path, rule  # test_invalid_workflows checks them
    workflow = tmp_path / "w.yaml"
    workflow.write_text(text, "utf-8", errors="surrogatepass")
    assert _agree(workflow)


@SETTINGS
@given(st.sampled_from(positions(BASE)), st.sampled_from(HOSTILE))
def test_hostile_values(position: tuple[Any, ...], raw: str) -> None:
    assume(position[-1] is not KEY or raw.startswith('"'))  # keys are strings
    _agree_on_text(hostile(BASE, position, raw))


@SETTINGS
@given(data_mutations())
def test_mutated_documents(text: str) -> None:
    _agree_on_text(text)


@SETTINGS
@given(text_mutations())
def test_mutated_text(text: str) -> None:
    _agree_on_text(text)


def test_the_built_in_declarations_are_the_catalogue_s() -> None:
    assert list(BUILTIN_DECLARATIONS) == list(CATALOGUE)
    for name, tool in CATALOGUE.items():
        declared = BUILTIN_DECLARATIONS[name]
        assert (declared.effect, declared.allow_required, declared.allow_keys) == (
            tool.effect,
            tool.allow_required,
            tool.allow_keys,
        )


def test_check_returns_the_plain_data() -> None:
    data = read_agent_workflow_data(ROOT / "examples" / "quickstart" / "workflow.yaml")
    assert data["version"] == 1
    assert [tool["name"] for tool in data["tools"]] == ["read_file", "write_file"]
