"""A suite's units (SPEC 19, 26) counted run by run, and their part of ``suite.json``.

A unit is one (workflow, case, target). A suite plans all of its units before its
first run, so each unit's counters are made once and change only in place: a
finished run leaves nothing new in the driver. A unit's entry depends on its names
and its four verdict counts alone, so the statistics of a count (pass rate,
interval, pass@k, pass^k, range) are computed, checked against the schema and
encoded once per distinct count, and shared by every unit that has it; a unit's
names are checked and encoded once. Each unit is thus checked as a whole (the
schema's unit properties are independent of each other) without checking every
unit at every rewrite.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from artemiskit._common._converter import CONVERTER
from artemiskit.suites._record import PassStatistics, check_unit_entry, make_unit

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from artemiskit.records._suite import SuiteUnitInfo

__all__ = ["CountedUnit", "UnitTable"]

#: The names a unit's counts are checked with, before its own names are.
_PLACEHOLDER = ("w", None, "t")
#: Counts of at most this many runs are remembered: a unit's pass@k has a key
#: per judged run, so a unit of many repetitions is encoded afresh instead
#: (it changes at almost every rewrite anyway).
_REMEMBERED_RUNS = 64


class CountedUnit:
    """One unit's names and verdict counts, updated in place as its runs finish."""

    __slots__ = (
        "case",
        "errored",
        "failed",
        "passed",
        "prefix",
        "target",
        "unavailable",
        "workflow",
    )

    def __init__(self, workflow: str, case: str | None, target: str) -> None:
        self.workflow = workflow
        self.case = case
        self.target = target
        self.passed = 0
        self.failed = 0
        self.errored = 0
        self.unavailable = 0
        #: The unit's line up to its counts, once encoded (and checked).
        self.prefix: bytes | None = None

    @property
    def counts(self) -> tuple[int, int, int, int]:
        """Passed, failed, errored and unavailable runs."""
        return (self.passed, self.failed, self.errored, self.unavailable)

    def add(self, verdict: str) -> None:
        """Count one finished run with this verdict."""
        if verdict == "passed":
            self.passed += 1
        elif verdict == "failed":
            self.failed += 1
        elif verdict == "errored":
            self.errored += 1
        else:
            self.unavailable += 1


def _names(workflow: str, case: str | None, target: str) -> str:
    """A unit's line up to its counts, as ``json.dumps`` writes a unit entry."""
    return (
        f'{{"workflow": {json.dumps(workflow)}, "case": {json.dumps(case)}, '
        f'"target": {json.dumps(target)}, '
    )


def _statistics(counts: tuple[int, int, int, int]) -> PassStatistics:
    if sum(counts) <= _REMEMBERED_RUNS:
        return _remembered_statistics(counts)
    return PassStatistics.of(*counts)


@functools.lru_cache(maxsize=4096)
def _remembered_statistics(counts: tuple[int, int, int, int]) -> PassStatistics:
    return PassStatistics.of(*counts)


def _counts_text(counts: tuple[int, int, int, int]) -> bytes:
    """A unit's line from its counts on, checked (once per distinct count)."""
    if sum(counts) <= _REMEMBERED_RUNS:
        return _remembered_counts_text(counts)
    return _encoded_counts(counts)


@functools.lru_cache(maxsize=4096)
def _remembered_counts_text(counts: tuple[int, int, int, int]) -> bytes:
    return _encoded_counts(counts)


def _encoded_counts(counts: tuple[int, int, int, int]) -> bytes:
    entry = make_unit(*_PLACEHOLDER, sum(counts), _statistics(counts))
    data: dict[str, Any] = CONVERTER.unstructure(entry)
    check_unit_entry(data)
    text = json.dumps(data)
    names = _names(*_PLACEHOLDER)
    assert text.startswith(names)
    return text[len(names) :].encode("utf-8")


class UnitTable:
    """One workflow's planned units, in ``suite.json`` order: cases, then targets.

    Args:
        workflow: The workflow's name.
        cases: Its cases as planned (``(None,)`` for a workflow without cases).
        targets: The ids of the targets it runs on.
    """

    __slots__ = ("_units",)

    def __init__(
        self, workflow: str, cases: Sequence[str | None], targets: Sequence[str]
    ) -> None:
        self._units = {
            (case, target): CountedUnit(workflow, case, target)
            for case in cases
            for target in targets
        }

    def __iter__(self) -> Iterator[CountedUnit]:
        return iter(self._units.values())

    def __len__(self) -> int:
        return len(self._units)

    def add(self, case: str | None, target: str, verdict: str) -> None:
        """Count one finished run of the unit (case, target)."""
        self._units[(case, target)].add(verdict)

    def entries(self) -> list[SuiteUnitInfo]:
        """The units as typed entries (SPEC 26)."""
        return [
            make_unit(
                unit.workflow,
                unit.case,
                unit.target,
                sum(unit.counts),
                _statistics(unit.counts),
            )
            for unit in self._units.values()
        ]

    def lines(self) -> Iterator[bytes]:
        """Each unit's entry as ``suite.json`` writes it (``json.dumps``), in order.

        Raises:
            WorkflowError: A unit is invalid for the schema
                (``invalid_suite_record``).
        """
        for unit in self._units.values():
            prefix = unit.prefix
            if prefix is None:
                # Its names, checked once: with its counts as they are now.
                data: dict[str, Any] = CONVERTER.unstructure(
                    make_unit(
                        unit.workflow,
                        unit.case,
                        unit.target,
                        sum(unit.counts),
                        _statistics(unit.counts),
                    )
                )
                check_unit_entry(data)
                prefix = unit.prefix = _names(
                    unit.workflow, unit.case, unit.target
                ).encode("utf-8")
            yield prefix + _counts_text(unit.counts)
