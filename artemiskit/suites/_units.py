"""Which units a suite runs (SPEC 19): (workflow, case), each ``repeat`` times.

A plain workflow is one unit (case ``None``); a workflow with cases is one unit
per selected case (`artemiskit.suites._selection`). `plan_units` is the one
place that lists the units in the order they start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.suites._discovery import SuiteWorkflow

__all__ = ["Unit", "plan_units"]


class Unit:
    """One (workflow, case) of a suite, run ``repeat`` times.

    Args:
        workflow: The validated workflow.
        case: The case id; ``None`` for a workflow without cases.
    """

    __slots__ = ("case", "workflow")

    def __init__(self, workflow: SuiteWorkflow, case: str | None = None) -> None:
        self.workflow = workflow
        self.case = case

    def __repr__(self) -> str:
        return f"Unit(workflow={self.workflow.name!r}, case={self.case!r})"


def plan_units(workflows: Sequence[SuiteWorkflow]) -> list[Unit]:
    """Every unit of a suite, in suite order (each workflow's cases in order)."""
    units: list[Unit] = []
    for item in workflows:
        if item.cases is None:
            units.append(Unit(workflow=item))
        else:
            units.extend(Unit(workflow=item, case=case) for case in item.case_ids)
    return units
