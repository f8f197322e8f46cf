"""Run ids: 12 characters of ``A-Za-z0-9_-``, random, never beginning with ``-``."""

from __future__ import annotations

import re

from artemiskit.prompt_response._runner import new_run_id


def test_run_ids_are_random_safe_file_names_never_beginning_with_a_dash() -> None:
    ids = [new_run_id() for _ in range(400)]
    assert all(re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_-]{11}", i) for i in ids)
    assert len(set(ids)) == len(ids)
    # Every position is drawn from the whole alphabet (the first without `-`):
    # 400 draws from 63 or 64 characters give many different ones at each.
    for position in (0, 1, 11):
        assert len({i[position] for i in ids}) > 30
