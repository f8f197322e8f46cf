"""Suite statistics stay in range where floating point would leave it, and refuse
impossible counts with their one message (mutation testing found both untested)."""

from __future__ import annotations

import pytest

from artemiskit.suites import pass_at_k, pass_hat_k, wilson_interval

MESSAGE = r"^passed must be between 0 and judged$"


def test_every_wilson_interval_lies_in_zero_one() -> None:
    # Unclamped, 16/16 reaches 1.0000000000000002 and 0/21 dips below 0.
    for judged in range(1, 81):
        for passed in range(judged + 1):
            interval = wilson_interval(passed, judged)
            assert interval is not None
            assert 0.0 <= interval.low <= interval.high <= 1.0, (passed, judged)


@pytest.mark.parametrize("count", [wilson_interval, pass_at_k, pass_hat_k])
@pytest.mark.parametrize(("passed", "judged"), [(3, 2), (-1, 2)])
def test_impossible_counts_are_refused_with_the_message(
    count: object, passed: int, judged: int
) -> None:
    assert callable(count)
    with pytest.raises(ValueError, match=MESSAGE):
        count(passed, judged)
