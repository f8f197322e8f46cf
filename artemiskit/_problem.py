"""`Problem`: one located problem of a file, as every problem list carries it.

`WorkflowError` and `ConfigError` list them (``artemiskit._errors``, which loads this
module on first use: a valid file checked cold makes no problem and imports no attrs).
"""

from __future__ import annotations

import attrs

__all__ = ["Problem"]


@attrs.frozen(kw_only=True)
class Problem:
    """One problem found in a workflow, configuration or fixture file.

    Attributes:
        message: The rule broken, e.g. ``must be ≤ 5``; never the offending value.
        path: The key path, e.g. ``$.retry.max_attempts``.
        source: The file (or ``<string>``) the problem is in.
        line: 1-based line of the offending node, when known.
        column: 1-based column of the offending node, when known.
    """

    message: str
    path: str = "$"
    source: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        where = f"{self.message} @ {self.path}"
        if self.line is not None:
            where += f" (line {self.line}, column {self.column})"
        return where
