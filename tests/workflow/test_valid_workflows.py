"""Valid workflows load; the CLI's output shapes; file errors; the public surface."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import artemiskit.workflow
from artemiskit import FileAccessError, WorkflowError
from artemiskit.providers import ScriptCase
from artemiskit.providers._scripted import parse_script_variants
from artemiskit.tools import CATALOGUE, catalogue_with
from artemiskit.workflow import (
    WORKFLOW_SCHEMA_FILE,
    FileOutcome,
    Workflow,
    load_agent_workflow,
    parse_agent_workflow,
    parse_yaml,
    read_case_workflows,
    validate_agent_workflow,
)
from artemiskit_cli._main import cli
from examples.custom_tool.order_tools import TOOLS as CUSTOM
from tests._cli import akit_process
from tests._permissions import obey_permission_bits
from tests.workflow._cases import BASE, dump, variant

ROOT = Path(__file__).resolve().parents[2]


def _is_workflow(path: Path) -> bool:
    """A YAML file under examples/ is a workflow if it has a target or conversation."""
    data = parse_yaml(path.read_text("utf-8"), source=str(path)).data
    return isinstance(data, dict) and bool({"target", "conversation"} & set(data))


def _has_cases(path: Path) -> bool:
    data = parse_yaml(path.read_text("utf-8"), source=str(path)).data
    return "cases" in data or "dataset" in data


_ALL = sorted(p for p in (ROOT / "examples").rglob("*.yaml") if _is_workflow(p))
#: Plain workflows; those with cases (examples/datasets) are `CASE_EXAMPLES`.
EXAMPLES = [p for p in _ALL if not _has_cases(p)]
#: Examples whose target is a live model (recorded once, replayed offline).
LIVE_EXAMPLES = {"replay"}
SCRIPTED_EXAMPLES = [p for p in EXAMPLES if p.parent.name not in LIVE_EXAMPLES]
CASE_EXAMPLES = [p for p in _ALL if _has_cases(p)]
#: User-defined tools of the examples that declare them.
EXAMPLE_TOOLS = {"custom_tool": ("examples.custom_tool.order_tools:TOOLS", CUSTOM)}


def _tools_of(path: Path) -> tuple[Any, ...]:
    return (
        EXAMPLE_TOOLS[path.parent.name][1] if path.parent.name in EXAMPLE_TOOLS else ()
    )


def _tools_options(path: Path) -> list[str]:
    known = EXAMPLE_TOOLS.get(path.parent.name)
    return [] if known is None else ["--tools", known[0]]


def test_there_are_examples() -> None:
    names = {p.parent.name for p in EXAMPLES}
    assert {"quickstart", "support-triage", "fault-recovery"} <= names
    assert {p.parent.name for p in CASE_EXAMPLES} == {"datasets"}


@pytest.mark.parametrize("path", CASE_EXAMPLES, ids=lambda p: p.parent.name)
def test_every_case_of_a_dataset_example_loads_with_its_script(path: Path) -> None:
    cases = read_case_workflows(path)
    assert len(cases.case_ids) == 20
    script = (path.parent / "agent.script.yaml").read_text("utf-8")
    for case_id in cases.case_ids:
        case = cases.case(case_id)
        assert case.workflow.target.provider == "scripted"
        (responses,) = parse_script_variants(
            script, case=ScriptCase(case.id, case.values)
        )
        declared = {tool.name for tool in case.workflow.tools}
        for entry in responses:
            for call in entry.tool_calls:
                assert call.name in declared
                arguments = json.loads(call.arguments)
                assert CATALOGUE[call.name].schema_problem("input", arguments) is None


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.parent.name)
async def test_examples_load(path: Path) -> None:
    workflow = await load_agent_workflow(path, tools=_tools_of(path))
    assert isinstance(workflow, Workflow)
    live = path.parent.name in LIVE_EXAMPLES
    assert workflow.target.provider == ("local" if live else "scripted")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.parent.name)
def test_examples_validate_with_the_cli(path: Path) -> None:
    arguments = ["scenario", "validate", str(path), *_tools_options(path)]
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 0, result.stderr
    assert "ok:" in result.stderr


@pytest.mark.parametrize("path", SCRIPTED_EXAMPLES, ids=lambda p: p.parent.name)
def test_example_scripts_fit_their_workflows(path: Path) -> None:
    """Each scripted call names a declared tool with arguments its schema accepts."""
    tools = _tools_of(path)
    workflow = parse_agent_workflow(path.read_text("utf-8"), tools=tools)
    catalogue = catalogue_with(tools)
    script_file = path.parent / f"{workflow.target.model}.script.yaml"
    script = parse_yaml(script_file.read_text("utf-8"), source=str(script_file)).data
    assert script["version"] == 1
    declared = {tool.name for tool in workflow.tools}
    # an MCP tool's schema is its server's: tests/examples runs the server
    served = {tool.name for tool in workflow.tools if tool.mcp is not None}
    # A suite example's script holds `variants:`, each a list of responses.
    variants: list[list[dict[str, Any]]] = script.get("variants") or [
        script["responses"]
    ]
    for responses in variants:
        assert responses[-1].get("text")
        assert not responses[-1].get("tool_calls")
        for entry in responses:
            assert set(entry) <= {"tool_calls", "text", "usage", "delay_ms"}
            for call in entry.get("tool_calls", []):
                assert call["name"] in declared
                if call["name"] in served:
                    continue
                tool = catalogue[call["name"]]
                assert tool.schema_problem("input", call["arguments"]) is None
        if workflow.name == "quickstart":
            assert all("usage" in entry for entry in responses)


def test_example_runs_through_a_real_subprocess() -> None:
    quickstart = ROOT / "examples" / "quickstart" / "workflow.yaml"
    done = akit_process("scenario", "validate", quickstart)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


def test_missing_fixture_still_validates(tmp_path: Path) -> None:
    target = tmp_path / "workflow.yaml"
    target.write_text(variant(lambda d: None), encoding="utf-8")
    assert not (tmp_path / "fixtures" / "extra.yaml").exists()
    result = CliRunner().invoke(cli, ["scenario", "validate", str(target)])
    assert result.exit_code == 0, result.stderr


def test_placeholders_stay_literal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/should/not/appear")
    workflow = parse_agent_workflow(dump(BASE))
    assert workflow.environment.files["docs/a.md"] == "hello ${HOME}"


def test_paths_are_normalized() -> None:
    def change(data: dict[str, Any]) -> None:
        data["environment"]["files"] = {"./docs//a.md": "x"}
        data["outcomes"][0]["file"] = "out/./x.md"

    workflow = parse_agent_workflow(variant(change))
    assert list(workflow.environment.files) == ["docs/a.md"]
    first = workflow.outcomes[0]
    assert isinstance(first, FileOutcome)
    assert first.file == "out/x.md"


def test_defaults_apply() -> None:
    text = (
        "version: 1\nname: tiny\ntarget: {provider: scripted, model: m}\n"
        "conversation: {turns: [{user: hi}]}\n"
        "budgets: {max_actions: 1, timeout_ms: 1}\n"
    )
    workflow = parse_agent_workflow(text)
    assert workflow.policy.network == "denied"
    assert workflow.policy.on_denial == "stop"
    assert workflow.retry.max_attempts == 1
    assert workflow.environment.kind == "simulated"
    assert workflow.tools == ()


def test_every_independent_problem_is_listed() -> None:
    def change(data: dict[str, Any]) -> None:
        data["version"] = 3
        data["budgets"]["max_actions"] = 0
        data["tools"][0]["name"] = "nope"
        data["outcomes"][1]["max"] = "many"
        data["faults"][0]["occurrence"] = 0
        data["retry"]["max_attempts"] = 9
        data["environment"]["files"] = {"/abs": "x"}

    problems = validate_agent_workflow(variant(change), source="w.yaml")
    paths = {p.path for p in problems}
    assert {
        "$.version",
        "$.budgets.max_actions",
        "$.tools[0].name",
        "$.outcomes[1].max",
        "$.faults[0].occurrence",
        "$.retry.max_attempts",
        '$.environment.files["/abs"]',
    } <= paths
    lines = [p.line or 0 for p in problems]
    assert lines == sorted(lines)


def test_json_output_lists_problems(tmp_path: Path) -> None:
    target = tmp_path / "w.yaml"
    target.write_text(variant(lambda d: d.update(version=2, extra=1)), "utf-8")
    result = CliRunner().invoke(cli, ["scenario", "validate", "--json", str(target)])
    assert result.exit_code == 2
    listing = json.loads(result.stdout)
    assert isinstance(listing, list)
    assert len(listing) == 2
    for item in listing:
        assert set(item) == {"file", "line", "column", "path", "message"}
        assert item["file"] == str(target)
        assert isinstance(item["line"], int)
        assert isinstance(item["column"], int)
    assert {i["path"] for i in listing} == {"$.version", "$.extra"}


def test_json_output_when_valid(tmp_path: Path) -> None:
    target = tmp_path / "w.yaml"
    target.write_text(dump(BASE), "utf-8")
    result = CliRunner().invoke(cli, ["scenario", "validate", "--json", str(target)])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []


@pytest.mark.parametrize("kind", ["missing", "directory", "unreadable"])
def test_unreadable_file_exits_1(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "w.yaml"
    if kind == "directory":
        target.mkdir()
    elif kind == "unreadable":
        target.write_text(dump(BASE), "utf-8")
        target.chmod(0)
    # A child that obeys permission bits even as root (CI runs as root).
    done = akit_process("scenario", "validate", target, preexec_fn=obey_permission_bits)
    assert done.returncode == 1, done.stderr
    assert "cannot read workflow file" in done.stderr
    assert "Traceback" not in done.stderr


async def test_unreadable_file_raises_file_access_error(tmp_path: Path) -> None:
    with pytest.raises(FileAccessError):
        await load_agent_workflow(tmp_path / "absent.yaml")


async def test_oversize_file_is_a_workflow_error(tmp_path: Path) -> None:
    target = tmp_path / "big.yaml"
    target.write_bytes(b"# " + b"x" * (4 * 1024 * 1024))
    with pytest.raises(WorkflowError) as caught:
        await load_agent_workflow(target)
    assert "4 MiB" in str(caught.value)


def test_oversize_and_binary_files_exit_2(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"# " + b"x" * (4 * 1024 * 1024))
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"name: \xff\xfe\x00\x01")
    for target in (big, binary):
        result = CliRunner().invoke(cli, ["scenario", "validate", str(target)])
        assert result.exit_code == 2
        assert "Traceback" not in result.stderr


def test_schema_file_ships_and_matches_the_catalogue() -> None:
    schema = json.loads(WORKFLOW_SCHEMA_FILE.read_text("utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    tools = schema["$defs"]["tool"]["properties"]["name"]["enum"]
    assert sorted(tools) == sorted(CATALOGUE)
    allow = schema["$defs"]["allow"]["properties"]
    assert set(allow) == {k for spec in CATALOGUE.values() for k in spec.allow_keys}


def test_schema_forbids_unknown_keys_everywhere() -> None:
    schema = json.loads(WORKFLOW_SCHEMA_FILE.read_text("utf-8"))

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "properties" in node:
                assert node.get("additionalProperties") is False, node
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)


def test_public_surface_is_sorted_and_exact() -> None:
    exported = artemiskit.workflow.__all__
    assert exported == sorted(exported)
    for name in exported:
        assert getattr(artemiskit.workflow, name) is not None
    assert {
        "WORKFLOW_SCHEMA_FILE",
        "load_agent_workflow",
        "parse_agent_workflow",
        "validate_agent_workflow",
        "read_agent_workflow",
        "read_agent_workflow_data",
        "parse_yaml",
        "YamlDocument",
        "Workflow",
    } <= set(exported)
