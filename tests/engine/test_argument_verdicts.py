"""A run remembers its argument checks by the arguments' text, never more than that.

The value rules and the input schema are decided once per tool and argument text;
the ``allow`` check is made at every call. Verdicts are the same as without
remembering, for admitted and denied calls alike.
"""

from __future__ import annotations

import json

from artemiskit.engine._admission import (
    MAX_VERDICT_TEXT,
    MAX_VERDICTS,
    ArgumentVerdicts,
    admit_tool_call,
)
from artemiskit.targets._protocol import ToolCall
from artemiskit.tools._catalogue import BUILTIN_CATALOGUE
from tests._builders import workflow_dict
from tests._runs import workflow_of

WORKFLOW = workflow_of(
    workflow_dict(tools=[{"name": "read_file", "allow": {"paths": ["docs/**"]}}])
)
DECLARED = {tool.name: tool for tool in WORKFLOW.tools}


def _admit(arguments: str, verdicts: ArgumentVerdicts | None) -> str | None:
    call = ToolCall(id="c", name="read_file", arguments=arguments)
    admission = admit_tool_call(call, DECLARED, BUILTIN_CATALOGUE, verdicts=verdicts)
    if admission.denial is None:
        assert admission.arguments == json.loads(arguments or "{}")
    return admission.denial


def test_remembered_verdicts_are_the_verdicts() -> None:
    verdicts = ArgumentVerdicts()
    texts = [
        '{"path": "docs/a.md"}',
        '{"path": "secret/a.md"}',
        '{"path": 7}',
        '{"path": "docs/a.md", "extra": 1}',
        '{"path": "../docs/a.md"}',
        "{}",
        "[1]",
        "not json",
    ]
    for _ in range(3):
        for text in texts:
            assert _admit(text, verdicts) == _admit(text, None)


def test_each_admission_gets_its_own_arguments() -> None:
    verdicts = ArgumentVerdicts()
    call = ToolCall(id="c", name="read_file", arguments='{"path": "docs/a.md"}')
    first = admit_tool_call(call, DECLARED, BUILTIN_CATALOGUE, verdicts=verdicts)
    second = admit_tool_call(call, DECLARED, BUILTIN_CATALOGUE, verdicts=verdicts)
    assert first.arguments == second.arguments == {"path": "docs/a.md"}
    assert first.arguments is not second.arguments


def test_long_texts_and_texts_past_the_limit_are_not_kept() -> None:
    verdicts = ArgumentVerdicts()
    long_path = "docs/" + "a" * MAX_VERDICT_TEXT
    assert _admit(json.dumps({"path": long_path}), verdicts) is not None
    assert len(verdicts._known) == 0
    for number in range(MAX_VERDICTS + 10):
        assert _admit(json.dumps({"path": f"docs/{number}.md"}), verdicts) is None
    assert len(verdicts._known) == MAX_VERDICTS
