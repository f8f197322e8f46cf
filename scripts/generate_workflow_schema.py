"""Regenerate the workflow schema and its compiled validator.

Rewrites ``artemiskit/workflow/workflow.schema.json`` (its tool part from the tool
catalogue) and then ``artemiskit/workflow/_compiled_schema.py`` (the validator
generated from that schema, and the built-in tools' declarations that a cold
validation reads instead of importing the tools). Run
``python scripts/generate_workflow_schema.py`` after adding or changing a built-in
tool or any rule of the workflow schema; ``tests/tools/test_catalogue.py`` fails
until both files are regenerated.

``--into DIR`` writes the two files (same names) into ``DIR`` instead of the
package: the test compares them with the shipped ones without rewriting package
files that tests running in parallel read.
"""

from __future__ import annotations

import argparse
import pathlib

from artemiskit.tools import CATALOGUE
from artemiskit.workflow._tool_schema import (
    COMPILED_SCHEMA_FILE,
    WORKFLOW_SCHEMA_FILE,
    compiled_schema_source,
    write_workflow_schema,
)


def main(argv: list[str] | None = None) -> None:
    """Write the schema and its validator (into the package unless ``--into``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--into",
        type=pathlib.Path,
        help="write both files into this folder instead of the package",
    )
    into: pathlib.Path | None = parser.parse_args(argv).into
    schema, compiled = WORKFLOW_SCHEMA_FILE, COMPILED_SCHEMA_FILE
    if into is not None:
        schema, compiled = into / schema.name, into / compiled.name
    write_workflow_schema(CATALOGUE, schema)
    compiled.write_text(compiled_schema_source(CATALOGUE), "utf-8")


if __name__ == "__main__":
    main()
