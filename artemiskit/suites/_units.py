"""Which units a suite runs (SPEC 19): (workflow, case), each ``repeat`` times.

A plain workflow is one unit (case ``None``); a workflow with cases is one unit
per selected case. `CaseSelection` picks cases (``--case`` ids, or a
reproducible ``--sample N --seed S``); `plan_units` is the one place that lists
the units in the order they start.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._errors import WorkflowError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.suites._discovery import SuiteWorkflow

__all__ = ["CaseSelection", "Unit", "plan_units", "select_cases", "unknown_case_ids"]


@attrs.frozen(kw_only=True)
class CaseSelection:
    """Which cases of each workflow with cases run.

    Attributes:
        ids: Only these case ids (``--case``); ``None`` for every case.
        sample: A random subset of this many cases per workflow (after
            ``ids``), reproducible with ``seed``.
        seed: The sample's seed (default 0).
    """

    ids: tuple[str, ...] | None = None
    sample: int | None = None
    seed: int | None = None

    def __attrs_post_init__(self) -> None:
        """Refuse a sample below 1.

        Raises:
            WorkflowError: ``sample`` is below 1 (``invalid_option``).
        """
        if self.sample is not None and self.sample < 1:
            raise WorkflowError("sample must be at least 1", reason="invalid_option")

    @property
    def chosen(self) -> bool:
        """Whether the selection leaves any case out."""
        return self.ids is not None or self.sample is not None

    def as_setting(self) -> dict[str, Any] | None:
        """``settings.cases`` of ``suite.json``: ``None`` when every case runs."""
        if not self.chosen:
            return None
        return {
            "ids": None if self.ids is None else list(self.ids),
            "sample": self.sample,
            "seed": None if self.sample is None else (self.seed or 0),
        }


EVERY_CASE = CaseSelection()


def select_cases(case_ids: Sequence[str], selection: CaseSelection) -> tuple[str, ...]:
    """The ids of one workflow's cases that run, in dataset order.

    Args:
        case_ids: Every case id of the workflow, in dataset order.
        selection: What was asked for.

    Returns:
        The ids kept: those named (if any), then a seeded sample of them.
    """
    kept: Sequence[str] = case_ids
    if selection.ids is not None:
        wanted = set(selection.ids)
        kept = [case for case in case_ids if case in wanted]
    if selection.sample is not None and selection.sample < len(kept):
        rng = random.Random(selection.seed or 0)
        picked = set(rng.sample(range(len(kept)), selection.sample))
        kept = [case for index, case in enumerate(kept) if index in picked]
    return tuple(kept)


def unknown_case_ids(
    selection: CaseSelection, every_id: Sequence[Sequence[str]]
) -> list[str]:
    """The ``--case`` ids that no workflow of the suite has, in the order given."""
    if selection.ids is None:
        return []
    known = {case for ids in every_id for case in ids}
    return [case for case in selection.ids if case not in known]


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
