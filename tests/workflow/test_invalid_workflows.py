"""One invalid workflow per rule: each is refused with the key path and a position.

Every case goes through `parse_agent_workflow` and through ``akit scenario validate``
(in process with click's runner); a subset also runs in a real subprocess.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from artemiskit import WorkflowError
from artemiskit.workflow import parse_agent_workflow
from artemiskit_cli._main import cli
from tests._cli import akit
from tests.workflow._cases import variant

Change = Callable[[dict[str, Any]], object]


def put(*path: str | int, value: Any) -> Change:
    def change(data: dict[str, Any]) -> None:
        node: Any = data
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value

    return change


def drop(*path: str | int) -> Change:
    def change(data: dict[str, Any]) -> None:
        node: Any = data
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]

    return change


def fault(**fields: Any) -> Change:
    base = {"id": "f-x", "tool": "read_file", "occurrence": 1}
    return put("faults", value=[{**base, **fields}])


def outcome(**fields: Any) -> Change:
    return put("outcomes", value=[{"id": "o-x", **fields}])


BIG = "x" * (256 * 1024 + 1)
RAW_BASE = "version: 1\nname: raw\ntarget: {provider: scripted, model: m}\n"
RAW_TAIL = (
    "conversation: {turns: [{user: hi}]}\nbudgets: {max_actions: 1, timeout_ms: 1}\n"
)

# (case id, workflow text, fragment of the key path, fragment of the rule)
CASES: list[tuple[str, str, str, str]] = [
    ("version", variant(put("version", value=2)), "$.version", "must be 1"),
    ("unknown-top-key", variant(put("extra", value=1)), "$.extra", "not a known key"),
    ("missing-name", variant(drop("name")), "$.name", "is required"),
    ("missing-model", variant(drop("target", "model")), "$.target.model", "required"),
    (
        "unknown-target-key",
        variant(put("target", "api_key", value="sk-secret-value")),
        "$.target.api_key",
        "not a known key",
    ),
    (
        "temperature-range",
        variant(put("target", "parameters", value={"temperature": 3})),
        "$.target.parameters.temperature",
        "≤ 2",
    ),
    (
        "environment-kind",
        variant(put("environment", "kind", value="host")),
        "$.environment.kind",
        "one of",
    ),
    (
        "absolute-file-path",
        variant(put("environment", "files", value={"/etc/passwd": "x"})),
        "$.environment.files",
        "absolute",
    ),
    (
        "dotdot-file-path",
        variant(put("environment", "files", value={"docs/../../x": "x"})),
        "$.environment.files",
        "'..'",
    ),
    (
        "backslash-file-path",
        variant(put("environment", "files", value={"docs\\x.md": "x"})),
        "$.environment.files",
        "backslash",
    ),
    (
        "long-file-path",
        variant(put("environment", "files", value={"a/" * 300 + "x": "x"})),
        "$.environment.files",
        "512 bytes",
    ),
    (
        "same-file-twice",
        variant(put("environment", "files", value={"a/b.md": "1", "./a//b.md": "2"})),
        "$.environment.files",
        "same file",
    ),
    (
        "file-too-large",
        variant(
            put("environment", "files", value={"big.txt": "x" * (1024 * 1024 + 1)})
        ),
        "$.environment.files",
        "1 MiB",
    ),
    (
        "fixture-absolute",
        variant(put("environment", "fixture", value="/tmp/fixture.yaml")),
        "$.environment.fixture",
        "absolute",
    ),
    (
        "fixture-extension",
        variant(put("environment", "fixture", value="fixtures/extra.txt")),
        "$.environment.fixture",
        ".json, .yaml or .yml",
    ),
    (
        "document-too-large",
        variant(put("environment", "state", "documents", "d-1", "content", value=BIG)),
        "$.environment.state.documents.d-1.content",
        "256 KiB",
    ),
    (
        "tool-not-in-catalogue",
        variant(put("tools", 0, "name", value="run_shell")),
        "$.tools[0].name",
        "one of",
    ),
    (
        "tool-declared-twice",
        variant(
            put("tools", 1, value={"name": "read_file", "allow": {"paths": ["x"]}})
        ),
        "$.tools[1].name",
        "already declared",
    ),
    (
        "allow-missing-required",
        variant(put("tools", 0, "allow", value={})),
        "$.tools[0].allow.paths",
        "required for read_file",
    ),
    (
        "allow-unknown-for-tool",
        variant(put("tools", 0, "allow", "ids", value=["x"])),
        "$.tools[0].allow.ids",
        "not an allow key of read_file",
    ),
    (
        "allow-unknown-key",
        variant(put("tools", 0, "allow", "hosts", value=["x"])),
        "$.tools[0].allow.hosts",
        "not a known key",
    ),
    (
        "glob-unclosed-bracket",
        variant(put("tools", 0, "allow", "paths", value=["docs/[ab"])),
        "$.tools[0].allow.paths[0]",
        "closing ']'",
    ),
    (
        "glob-partial-doublestar",
        variant(put("tools", 0, "allow", "paths", value=["docs/a**"])),
        "$.tools[0].allow.paths[0]",
        "whole path segment",
    ),
    (
        "glob-traversal",
        variant(put("tools", 1, "allow", "paths", value=["../out/*"])),
        "$.tools[1].allow.paths[0]",
        "'..'",
    ),
    (
        "network-allowed",
        variant(put("policy", "network", value="allowed")),
        "$.policy.network",
        "must be denied",
    ),
    (
        "on-denial",
        variant(put("policy", "on_denial", value="ignore")),
        "$.policy.on_denial",
        "one of",
    ),
    (
        "no-turns",
        variant(put("conversation", "turns", value=[])),
        "$.conversation.turns",
        "must not be empty",
    ),
    (
        "turn-too-large",
        variant(put("conversation", "turns", 0, "user", value=BIG)),
        "$.conversation.turns[0].user",
        "256 KiB",
    ),
    (
        "system-too-large",
        variant(put("conversation", "system", value=BIG)),
        "$.conversation.system",
        "256 KiB",
    ),
    (
        "missing-budget",
        variant(drop("budgets", "max_actions")),
        "$.budgets.max_actions",
        "is required",
    ),
    (
        "budget-zero",
        variant(put("budgets", "max_tool_calls", value=0)),
        "$.budgets.max_tool_calls",
        "≥ 1",
    ),
    (
        "budget-timeout-too-large",
        variant(put("budgets", "timeout_ms", value=86_400_001)),
        "$.budgets.timeout_ms",
        "≤ 86400000",
    ),
    (
        "budget-not-integer",
        variant(put("budgets", "max_actions", value="20")),
        "$.budgets.max_actions",
        "integer",
    ),
    (
        "outcome-ids-repeat",
        variant(put("outcomes", 1, "id", value="written")),
        "$.outcomes[1].id",
        "repeats the id",
    ),
    ("outcome-no-kind", variant(outcome()), "$.outcomes[0]", "exactly one of"),
    (
        "outcome-two-kinds",
        variant(outcome(file="a.md", tool_called="read_file")),
        "$.outcomes[0]",
        "exactly one of",
    ),
    (
        "tool-called-undeclared",
        variant(outcome(tool_called="delete_file")),
        "$.outcomes[0].tool_called",
        "does not declare",
    ),
    (
        "tool-not-called-unknown",
        variant(outcome(tool_not_called="send_email")),
        "$.outcomes[0].tool_not_called",
        "one of",
    ),
    (
        "min-above-max",
        variant(outcome(tool_called="read_file", min=3, max=1)),
        "$.outcomes[0].max",
        "≥ min",
    ),
    (
        "final-response-bad-regex",
        variant(outcome(final_response={"matches": "(unclosed"})),
        "$.outcomes[0].final_response.matches",
        "regular expression",
    ),
    (
        "final-response-empty",
        variant(outcome(final_response={})),
        "$.outcomes[0].final_response",
        "must not be empty",
    ),
    (
        "file-bad-regex",
        variant(outcome(file="a.md", matches="[z-a]")),
        "$.outcomes[0].matches",
        "regular expression",
    ),
    (
        "file-exists-and-absent",
        variant(outcome(file="a.md", exists=True, absent=True)),
        "$.outcomes[0]",
        "exclude each other",
    ),
    ("file-no-check", variant(outcome(file="a.md")), "$.outcomes[0]", "needs a check"),
    (
        "file-two-groups",
        variant(outcome(file="a.md", absent=True, contains=["x"])),
        "$.outcomes[0]",
        "give one check",
    ),
    (
        "file-outcome-path",
        variant(outcome(file="../a.md", exists=True)),
        "$.outcomes[0].file",
        "'..'",
    ),
    (
        "judge-threshold",
        variant(outcome(judge={"rubric": "r", "threshold": 1.5})),
        "$.outcomes[0].judge.threshold",
        "≤ 1",
    ),
    (
        "judge-threshold-nan",
        variant(outcome(judge={"rubric": "r", "threshold": float("nan")})),
        "$.outcomes[0].judge.threshold",
        "finite",
    ),
    (
        "state-root",
        variant(outcome(state="secrets.0", equals=1)),
        "$.outcomes[0].state",
        "dotted path",
    ),
    (
        "state-without-predicate",
        variant(outcome(state="drafts.0.status")),
        "$.outcomes[0]",
        "needs a predicate beside state",
    ),
    (
        "fault-undeclared-tool",
        variant(fault(tool="delete_file", kind="unavailable_tool")),
        "$.faults[0].tool",
        "does not declare",
    ),
    (
        "fault-read-kind-on-write-tool",
        variant(fault(tool="write_file", kind="stale_read", fixture={"path": "a"})),
        "$.faults[0].kind",
        "only to read tools",
    ),
    (
        "conflicting-on-record",
        variant(fault(tool="get_record", kind="conflicting_instructions", content="x")),
        "$.faults[0].kind",
        "read_file and read_document",
    ),
    (
        "timeout-ms-wrong-kind",
        variant(fault(kind="unavailable_tool", timeout_ms=10)),
        "$.faults[0].timeout_ms",
        "only for timeout",
    ),
    (
        "timeout-ms-range",
        variant(fault(kind="timeout", timeout_ms=60001)),
        "$.faults[0].timeout_ms",
        "≤ 60000",
    ),
    (
        "stale-without-fixture",
        variant(fault(kind="stale_read")),
        "$.faults[0].fixture",
        "required for stale_read",
    ),
    (
        "fixture-breaks-output-schema",
        variant(fault(kind="incomplete_read", fixture={"path": "a.md"})),
        "$.faults[0].fixture",
        "output schema of read_file",
    ),
    (
        "fixture-too-large",
        variant(
            fault(kind="stale_read", fixture={"path": "a", "content": "x" * 17000})
        ),
        "$.faults[0].fixture",
        "16 KiB",
    ),
    (
        "fixture-on-wrong-kind",
        variant(fault(kind="timeout", fixture={"path": "a", "content": "b"})),
        "$.faults[0].fixture",
        "only for stale_read",
    ),
    (
        "conflicting-without-content",
        variant(fault(kind="conflicting_instructions")),
        "$.faults[0].content",
        "required for conflicting_instructions",
    ),
    (
        "content-too-large",
        variant(fault(kind="conflicting_instructions", content="é" * 2049)),
        "$.faults[0].content",
        "4096 bytes",
    ),
    (
        "content-on-wrong-kind",
        variant(fault(kind="malformed_result", content="x")),
        "$.faults[0].content",
        "only for conflicting_instructions",
    ),
    (
        "too-many-faults",
        variant(
            put(
                "faults",
                value=[
                    {
                        "id": f"f{i}",
                        "tool": "read_file",
                        "occurrence": i + 1,
                        "kind": "timeout",
                    }
                    for i in range(33)
                ],
            )
        ),
        "$.faults",
        "at most 32 items",
    ),
    (
        "too-many-faults-per-occurrence",
        variant(
            put(
                "faults",
                value=[
                    {
                        "id": f"f{i}",
                        "tool": "read_file",
                        "occurrence": 1,
                        "kind": "unavailable_tool",
                    }
                    for i in range(6)
                ],
            )
        ),
        "$.faults[5]",
        "attempts 1 to 5",
    ),
    (
        "fault-ids-repeat",
        variant(
            put(
                "faults",
                value=[
                    {
                        "id": "f",
                        "tool": "read_file",
                        "occurrence": 1,
                        "kind": "timeout",
                    },
                    {
                        "id": "f",
                        "tool": "read_file",
                        "occurrence": 2,
                        "kind": "timeout",
                    },
                ],
            )
        ),
        "$.faults[1].id",
        "repeats the id",
    ),
    (
        "occurrence-zero",
        variant(fault(kind="timeout", occurrence=0)),
        "occurrence",
        "≥ 1",
    ),
    (
        "retry-too-many",
        variant(put("retry", "max_attempts", value=6)),
        "$.retry.max_attempts",
        "≤ 5",
    ),
    (
        "retry-zero",
        variant(put("retry", "max_attempts", value=0)),
        "$.retry.max_attempts",
        "≥ 1",
    ),
    (
        "lone-surrogate",
        RAW_BASE + 'description: "\\ud800"\n' + RAW_TAIL,
        "$.description",
        "valid Unicode",
    ),
    ("duplicate-key", RAW_BASE + "name: again\n" + RAW_TAIL, "$.name", "duplicate key"),
    (
        "explicit-tag",
        RAW_BASE.replace("name: raw", "name: !!python/name:os.system raw") + RAW_TAIL,
        "$.name",
        "tags",
    ),
    (
        "anchor-alias",
        RAW_BASE + "description: &d text\n" + RAW_TAIL + "x: *d\n",
        "$.description",
        "anchors",
    ),
    ("merge-key", RAW_BASE + "<<: {description: d}\n" + RAW_TAIL, "$", "merge keys"),
    ("non-string-key", RAW_BASE + "1: one\n" + RAW_TAIL, "$", "keys must be strings"),
    ("syntax-error", RAW_BASE + "conversation: [\n", "$", "YAML syntax error"),
    ("not-a-mapping", "- just\n- a list\n", "$", "must be an object"),
]

IDS = [case[0] for case in CASES]


def test_there_are_enough_rules() -> None:
    assert len(CASES) >= 25
    assert len(set(IDS)) == len(IDS)


@pytest.mark.parametrize(("text", "path", "rule"), [c[1:] for c in CASES], ids=IDS)
def test_parse_refuses(text: str, path: str, rule: str) -> None:
    with pytest.raises(WorkflowError) as caught:
        parse_agent_workflow(text, source="case.yaml")
    matching = [
        p for p in caught.value.problems if path in p.path and rule in p.message
    ]
    assert matching, caught.value.errors
    for problem in caught.value.problems:
        assert problem.source == "case.yaml"
        assert problem.line is not None
        assert problem.column is not None
        assert "sk-secret-value" not in problem.message
        assert "x" * 100 not in problem.message


@pytest.mark.parametrize(("text", "path", "rule"), [c[1:] for c in CASES], ids=IDS)
def test_cli_refuses(tmp_path: Path, text: str, path: str, rule: str) -> None:
    target = tmp_path / "case.yaml"
    target.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["scenario", "validate", str(target)])
    assert result.exit_code == 2, result.output
    assert f"{target}:" in result.stderr
    assert path in result.stderr
    assert rule in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


SUBPROCESS_CASES = [
    c
    for c in CASES
    if c[0]
    in {
        "version",
        "missing-model",
        "absolute-file-path",
        "tool-not-in-catalogue",
        "allow-missing-required",
        "network-allowed",
        "budget-zero",
        "tool-called-undeclared",
        "fault-read-kind-on-write-tool",
        "retry-too-many",
        "duplicate-key",
        "explicit-tag",
    }
]


@pytest.mark.parametrize(
    ("text", "path", "rule"),
    [c[1:] for c in SUBPROCESS_CASES],
    ids=[c[0] for c in SUBPROCESS_CASES],
)
def test_subprocess_refuses(tmp_path: Path, text: str, path: str, rule: str) -> None:
    target = tmp_path / "case.yaml"
    target.write_text(text, encoding="utf-8")
    done = akit("scenario", "validate", target)
    assert done.returncode == 2, done.stderr
    line = next(x for x in done.stderr.splitlines() if path in x and rule in x)
    file_part, line_no, column, *_ = line.split(":")
    assert file_part == str(target)
    assert line_no.isdigit()
    assert column.isdigit()
    assert "Traceback" not in done.stderr
