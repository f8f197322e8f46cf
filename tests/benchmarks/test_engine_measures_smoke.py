"""The engine's measure modules run and every target they feed is judged.

No timing checks: what they count rather than time is asserted (a durable step
syncs the journal twice, one sync per admitted operation, and writes about the
same bytes late in a run as early), and that the targets table reads a verdict,
never "not measured", from their figures.
"""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks import durable, hot_path, sessions
from benchmarks._targets import TARGETS, evaluate_targets
from benchmarks._workload import LatencyTarget

asyncio_only = pytest.mark.parametrize("anyio_backend", ["asyncio"])


def _judged(key: str, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The verdicts of the targets that read ``key``, given only that measure."""
    judged = evaluate_targets({key: result})
    wanted = {target.wanted for target in TARGETS if target.needs == key}
    return [entry for entry in judged if entry["target"] in wanted]


@asyncio_only
async def test_the_durable_measure_counts_two_syncs_per_step() -> None:
    result = await durable.measure_durable(steps=40, pairs=3)
    assert result["fsyncs_per_step"]["median"] == 2
    per_step = result["bytes_per_step"]
    assert per_step["step_40"] <= 1.2 * per_step["step_10"]
    assert 0 < result["sync_share_of_run"] < 1
    judged = _judged("per_step_checkpointed", result)
    assert len(judged) == 4
    assert None not in {entry["met"] for entry in judged}
    (syncs,) = [e for e in judged if e["target"] == "≤ 2 fsyncs per step"]
    assert syncs["met"] is True
    (flat,) = [e for e in judged if e["target"] == "bytes written per step stay flat"]
    assert flat["met"] is True


@asyncio_only
async def test_the_hot_path_measure_feeds_the_floor_and_growth_targets() -> None:
    result = await hot_path.measure_hot_path(steps=30, pairs=3)
    assert result["vs_plain_loop"]["pairs"] == 3
    assert set(result["marks"]) == {"10"}
    judged = _judged("per_step", result)
    assert [entry["target"] for entry in judged] == [
        "step 500 / step 10 ≤ 1.1",
        "CPU per step within 2× of a plain-Python loop (same parsing, policy, "
        "encoding)",
    ]
    assert None not in {entry["met"] for entry in judged}


def test_the_profile_counts_calls_per_step_of_both_loops() -> None:
    profile = hot_path.profile_calls(20)
    assert profile["calls_per_step"] > profile["plain_loop_calls_per_step"] > 0
    assert profile["event_loop_turns_per_step"] > 0
    assert profile["plain_loop_event_loop_turns_per_step"] >= 0
    assert profile["top_by_own_time"]


@asyncio_only
async def test_the_sessions_measure_feeds_both_session_targets() -> None:
    result = await sessions.measure_sessions(count=5, steps=3, latency_ms=1, pairs=3)
    assert result["vs_one_session"]["from_path"]["pairs"] == 3
    assert set(result["vs_one_session"]) == {"from_path", "loaded"}
    floor = result["floor"]
    assert floor["pairs"] == 3
    assert floor["cpu_ms_per_session"] > 0
    assert result["engine_cpu_ms_per_session_beyond_floor"] == (
        result["vs_one_session"]["loaded"]["cpu_ms_per_session"]
        - floor["cpu_ms_per_session"]
    )
    waits = result["waits"]
    assert waits["pairs"] == 3
    assert waits["cpu_ms_per_session"] > 0
    for figure in (*result["vs_one_session"].values(), floor, waits):
        assert 0 <= figure["gc_share"] <= 1
    assert result["memory_per_session_kib"] > 0
    judged = _judged("concurrency", result)
    assert len(judged) == 2
    by_target = {entry["target"]: entry for entry in judged}
    assert by_target["memory per session reported"]["met"] is True
    cpu = by_target[
        "CPU per session ≤ 1.5× a plain hand-written loop doing the same work, "
        "same sitting"
    ]
    assert cpu["met"] is False  # fewer than 1000 sessions
    assert cpu["measured"].startswith("only 5 sessions: ")
    pairs = result["cpu_vs_floor"]
    assert pairs["pairs"] == 3
    assert pairs["engine_cpu_ms_per_session"] > 0
    assert pairs["floor_cpu_ms_per_session"] > 0


async def test_the_plain_agent_loop_makes_every_model_request() -> None:
    target = LatencyTarget(4, 0.0)
    await hot_path.plain_agent_loop(target)
    assert target.requests == 4


def test_the_sessions_profile_counts_calls_per_session() -> None:
    profile = sessions.profile_sessions(count=4, steps=3)
    assert profile["sessions"] == 4
    assert profile["calls_per_session"] == profile["calls"] / 4 > 0
    assert profile["top_by_own_time"]


@asyncio_only
async def test_the_replay_measure_compares_replayed_and_scripted_suites() -> None:
    from benchmarks import replay

    result = await replay.measure_replay(runs=10, pairs=3)
    assert result["runs"] == 10
    assert result["vs_scripted"]["pairs"] == 3
    assert result["vs_scripted_wall"]["pairs"] == 3
    judged = _judged("replay", result)
    assert len(judged) == 1
    assert judged[0]["met"] in {True, False}
