"""Regenerate ``artemiskit/workflow/workflow.schema.json`` from the tool catalogue.

Run ``python scripts/generate_workflow_schema.py`` after adding or changing a built-in
tool; ``tests/tools/test_catalogue.py`` fails until the file is regenerated.
"""

from __future__ import annotations

from artemiskit.tools import CATALOGUE
from artemiskit.workflow._tool_schema import WORKFLOW_SCHEMA_FILE, write_workflow_schema

if __name__ == "__main__":
    write_workflow_schema(CATALOGUE, WORKFLOW_SCHEMA_FILE)
