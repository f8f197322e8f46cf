"""Regenerate the workflow schema and its compiled validator.

Rewrites ``artemiskit/workflow/workflow.schema.json`` (its tool part from the tool
catalogue) and then ``artemiskit/workflow/_compiled_schema.py`` (the validator
generated from that schema, and the built-in tools' declarations that a cold
validation reads instead of importing the tools). Run
``python scripts/generate_workflow_schema.py`` after adding or changing a built-in
tool or any rule of the workflow schema; ``tests/tools/test_catalogue.py`` fails
until both files are regenerated.
"""

from __future__ import annotations

from artemiskit.tools import CATALOGUE
from artemiskit.workflow._tool_schema import (
    COMPILED_SCHEMA_FILE,
    WORKFLOW_SCHEMA_FILE,
    compiled_schema_source,
    write_workflow_schema,
)

if __name__ == "__main__":
    write_workflow_schema(CATALOGUE, WORKFLOW_SCHEMA_FILE)
    COMPILED_SCHEMA_FILE.write_text(compiled_schema_source(CATALOGUE), "utf-8")
