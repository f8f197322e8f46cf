"""The catalogue is made of `Tool` objects; the workflow schema is generated."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from artemiskit import ToolDefinitionError
from artemiskit.tools import BUILTIN_TOOLS, CATALOGUE, Tool, catalogue_with
from artemiskit.workflow import WORKFLOW_SCHEMA_FILE
from artemiskit.workflow._tool_schema import workflow_schema_for

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_workflow_schema_is_the_one_generated_from_the_catalogue() -> None:
    shipped = json.loads(WORKFLOW_SCHEMA_FILE.read_text("utf-8"))
    assert shipped == workflow_schema_for(CATALOGUE)


def test_the_generation_script_rewrites_the_schema_identically(tmp_path: Path) -> None:
    before = WORKFLOW_SCHEMA_FILE.read_bytes()
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "generate_workflow_schema.py")],
        check=True,
        cwd=tmp_path,
    )
    assert WORKFLOW_SCHEMA_FILE.read_bytes() == before


def test_the_built_in_catalogue_is_the_list_of_tool_objects() -> None:
    assert tuple(CATALOGUE.values()) == BUILTIN_TOOLS
    assert all(isinstance(tool, Tool) for tool in BUILTIN_TOOLS)
    effects = {tool.name: tool.effect for tool in BUILTIN_TOOLS}
    assert effects["read_file"] == "read"
    assert effects["delegate_task"] == "write"


def test_a_generated_schema_lists_registered_tools_beside_the_built_ins() -> None:
    async def handler(arguments: object, context: object) -> object:
        raise AssertionError("never called")

    extra = Tool(
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
    schema = workflow_schema_for(catalogue_with([extra]))
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
