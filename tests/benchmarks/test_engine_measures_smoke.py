"""The engine's measure modules run and give their target rows (no timing checks).

What they count rather than time is asserted: a durable step syncs the journal
twice (one sync per admitted operation) and writes about the same bytes late in
a run as early.
"""

from __future__ import annotations

import pytest

from benchmarks import durable, hot_path, sessions

pytestmark = pytest.mark.parametrize("anyio_backend", ["asyncio"])


async def test_the_durable_measure_counts_two_syncs_per_step() -> None:
    result = await durable.measure_durable(steps=40, pairs=3, peer=False)
    assert result["fsyncs_per_step"]["median"] == 2
    per_step = result["bytes_per_step"]
    assert per_step["step_40"] <= 1.2 * per_step["step_10"]
    rows = durable.rows(result)
    assert len(rows) == 5
    assert rows[0]["status"] == "met"
    assert rows[-1]["status"] == "not measured"


async def test_the_hot_path_measure_gives_its_rows() -> None:
    result = await hot_path.measure_hot_path(steps=30, pairs=3, peer=False)
    assert result["vs_plain_loop"]["pairs"] == 3
    assert [row["measure"] for row in hot_path.rows(result)] == [
        "per step, instant target, no durability"
    ] * 3


async def test_the_sessions_measure_gives_its_rows() -> None:
    result = await sessions.measure_sessions(count=5, steps=3, latency_ms=1, pairs=3)
    assert result["vs_one_session"]["from_path"]["pairs"] == 3
    assert result["memory_per_session_kib"] > 0
    assert len(sessions.rows(result)) == 3
