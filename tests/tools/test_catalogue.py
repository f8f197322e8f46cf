"""The catalogue is made of `Tool` objects; the workflow schema is generated."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from artemiskit import ToolDefinitionError
from artemiskit.tools import BUILTIN_TOOLS, CATALOGUE, Tool, catalogue_with
from artemiskit.workflow import WORKFLOW_SCHEMA_FILE, parse_agent_workflow
from artemiskit.workflow._tool_schema import (
    COMPILED_SCHEMA_FILE,
    compiled_schema_source,
    schema_checker_for,
    workflow_schema_for,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_workflow_schema_is_the_one_generated_from_the_catalogue() -> None:
    shipped = json.loads(WORKFLOW_SCHEMA_FILE.read_text("utf-8"))
    assert shipped == workflow_schema_for(CATALOGUE)


def test_the_shipped_validator_is_the_one_generated_from_the_schema() -> None:
    assert COMPILED_SCHEMA_FILE.read_text("utf-8") == compiled_schema_source(
        CATALOGUE
    ), "stale: run python scripts/generate_workflow_schema.py"


def test_the_generation_script_rewrites_the_schema_identically(tmp_path: Path) -> None:
    before = WORKFLOW_SCHEMA_FILE.read_bytes(), COMPILED_SCHEMA_FILE.read_bytes()
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "generate_workflow_schema.py")],
        check=True,
        cwd=tmp_path,
    )
    assert (WORKFLOW_SCHEMA_FILE.read_bytes(), COMPILED_SCHEMA_FILE.read_bytes()) == (
        before
    )


def test_the_built_in_schema_uses_the_shipped_validator_and_others_compile() -> None:
    from artemiskit.workflow import _compiled_schema

    assert schema_checker_for(CATALOGUE).validator() is _compiled_schema.validate
    extended = catalogue_with([_lookup_order()])
    assert schema_checker_for(extended).validator() is not _compiled_schema.validate
    declared = (ROOT / "examples" / "quickstart" / "workflow.yaml").read_text("utf-8")
    declared = declared.replace(
        "  - name: read_file", "  - name: lookup_order\n  - name: read_file", 1
    )
    assert parse_agent_workflow(declared, tools=extended).tools[0].name == (
        "lookup_order"
    )


def test_the_built_in_catalogue_is_the_list_of_tool_objects() -> None:
    assert tuple(CATALOGUE.values()) == BUILTIN_TOOLS
    assert all(isinstance(tool, Tool) for tool in BUILTIN_TOOLS)
    effects = {tool.name: tool.effect for tool in BUILTIN_TOOLS}
    assert effects["read_file"] == "read"
    assert effects["delegate_task"] == "write"


def _lookup_order() -> Tool:
    async def handler(arguments: object, context: object) -> object:
        raise AssertionError("never called")

    return Tool(
        name="lookup_order",
        description="Look up an order.",
        input_schema={
            "type": "object",
            "properties": {"id": {"type": "string"}},
            "required": ["id"],
        },
        output_schema={"type": "object"},
        effect="read",
        handler=handler,  # type: ignore[arg-type]
    )


def test_a_generated_schema_lists_registered_tools_beside_the_built_ins() -> None:
    schema = workflow_schema_for(catalogue_with([_lookup_order()]))
    names = schema["$defs"]["tool"]["properties"]["name"]["enum"]
    assert names == [*CATALOGUE, "lookup_order"]
    assert schema["$defs"]["fault"]["properties"]["tool"]["enum"] == names


def test_a_tool_cannot_take_a_built_in_name() -> None:
    with pytest.raises(ToolDefinitionError, match="already in the catalogue"):
        catalogue_with([CATALOGUE["read_file"]])


def test_the_former_entry_type_still_works_with_a_deprecation_warning() -> None:
    import artemiskit.tools

    with pytest.warns(DeprecationWarning, match="ToolSpec"):
        assert artemiskit.tools.ToolSpec is Tool


def test_every_built_in_schema_compiles_and_checks_on_first_use() -> None:
    for tool in BUILTIN_TOOLS:
        assert tool.schema_problem("input", []) == "type rule broken at data", tool
        assert tool.schema_problem("output", []) is not None, tool
