"""Two targets of one suite compared with ``--max-drop`` (the rule of two suites)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit.reports import compare_targets
from tests.reports.test_compare_paired import _read, _target_suite

if TYPE_CHECKING:
    from pathlib import Path


def test_max_drop_flags_a_target_drop_that_is_not_significant(tmp_path: Path) -> None:
    suite = _read(_target_suite(tmp_path))
    plain = {r.name: r for r in compare_targets(suite, "a", "b").workflows}["plain"]
    assert not plain.regressed  # 4/4 -> 3/4: Fisher's p is 1
    strict = compare_targets(suite, "a", "b", max_drop=0.2)
    rows = {r.name: r for r in strict.workflows}
    assert rows["plain"].regressed  # dropped by 0.25, more than 0.2
    assert strict.max_drop == 0.2
    assert "plain" in strict.regressed
