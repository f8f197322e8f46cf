"""Which cases of a suite's workflows run (SPEC 19): ``--case`` ids or a sample.

`CaseSelection` is what was asked for; `select_cases` applies it to one
workflow's case ids (a reproducible ``--sample N --seed S``), and
`unknown_case_ids` names the ``--case`` ids no workflow has.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import attrs

from artemiskit._common._json import MAX_EVIDENCE_INTEGER
from artemiskit._errors import WorkflowError

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["EVERY_CASE", "CaseSelection", "select_cases", "unknown_case_ids"]


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
        """Refuse a sample below 1, and numbers ``suite.json`` could not hold.

        Raises:
            WorkflowError: ``sample`` is below 1, or ``sample`` or ``seed`` is
                beyond the 64-bit range of evidence integers (``invalid_option``).
        """
        if self.sample is not None and self.sample < 1:
            raise WorkflowError("sample must be at least 1", reason="invalid_option")
        for name, value in (("sample", self.sample), ("seed", self.seed)):
            if value is not None and abs(value) > MAX_EVIDENCE_INTEGER:
                raise WorkflowError(
                    f"{name} must be within the 64-bit range", reason="invalid_option"
                )

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
