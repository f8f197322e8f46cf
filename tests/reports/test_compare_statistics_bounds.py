"""Comparison statistics stay in range where floating point would leave it, and
refuse impossible counts with their one message (found by mutation testing)."""

from __future__ import annotations

import pytest

from artemiskit._common._statistics import fisher_exact_p, newcombe_interval


def test_every_newcombe_interval_lies_in_minus_one_one() -> None:
    # Unclamped, 10/10 against 0/3 reaches -1.0000000000000002.
    for judged in (1, 3, 6, 10, 17):
        for other in (1, 3, 7, 10):
            for passed in range(judged + 1):
                for candidate in range(other + 1):
                    interval = newcombe_interval(passed, judged, candidate, other)
                    assert interval is not None
                    assert -1.0 <= interval.low <= interval.high <= 1.0


@pytest.mark.parametrize("compare", [fisher_exact_p, newcombe_interval])
@pytest.mark.parametrize("counts", [(3, 2, 1, 2), (1, 2, -1, 2)])
def test_impossible_counts_are_refused_with_the_message(
    compare: object, counts: tuple[int, int, int, int]
) -> None:
    assert callable(compare)
    with pytest.raises(ValueError, match=r"^passed must be between 0 and judged$"):
        compare(*counts)
