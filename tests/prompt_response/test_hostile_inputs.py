"""Hostile scenarios and manifests end as typed errors, never tracebacks."""

from __future__ import annotations

import contextlib
import json
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from artemiskit.prompt_response import (
    LocalStorage,
    ScenarioError,
    manifest_from_dict,
    parse_scenario,
    read_manifest_file,
)
from tests._cli import akit

if TYPE_CHECKING:
    from pathlib import Path

VALID: dict[str, Any] = {
    "name": "s",
    "cases": [{"id": "a", "prompt": "p", "expected": {"type": "exact", "value": "x"}}],
}
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=20),
)
values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_any_text_is_a_scenario_or_a_scenario_error(text: str) -> None:
    with contextlib.suppress(ScenarioError):
        parse_scenario(text, environ={}, evaluators=())


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(
        ["name", "cases", "variables", "redaction", "setup", "temperature"]
    ),
    values,
)
def test_any_value_at_a_key_is_a_scenario_or_a_scenario_error(
    key: str, value: Any
) -> None:
    with contextlib.suppress(ScenarioError):
        parse_scenario(json.dumps({**VALID, key: value}), environ={}, evaluators=())


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["prompt", "expected", "tags", "timeout", "variables"]), values)
def test_any_case_value_is_a_scenario_or_a_scenario_error(key: str, value: Any) -> None:
    case = {**VALID["cases"][0], key: value}
    with contextlib.suppress(ScenarioError):
        parse_scenario(
            json.dumps({**VALID, "cases": [case]}), environ={}, evaluators=()
        )


MANIFEST: dict[str, Any] = {
    "version": "1.0",
    "run_id": "abcdefghijkl",
    "project": "p",
    "start_time": "2026-01-01T00:00:00.000Z",
    "end_time": "2026-01-01T00:00:01.000Z",
    "duration_ms": 1000,
    "config": {"scenario": "s", "provider": "openai"},
    "metrics": {
        "success_rate": 1,
        "total_cases": 0,
        "passed_cases": 0,
        "failed_cases": 0,
        "median_latency_ms": 0,
        "p95_latency_ms": 0,
        "total_prompt_tokens": 0,
        "total_completion_tokens": 0,
        "total_tokens": 0,
    },
    "git": {"commit": "c", "branch": "b", "dirty": False},
    "provenance": {"run_by": "u"},
    "cases": [],
    "environment": {"python_version": "3", "platform": "linux", "arch": "x64"},
}


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("metrics", "success_rate"), "abc"),
        (("metrics", "total_tokens"), True),
        (("cases",), "x"),
        (("cases",), [{"id": 1}]),
        (("config",), []),
        (("git", "dirty"), "no"),
    ],
)
def test_a_malformed_manifest_is_a_value_error(
    path: tuple[str, ...], value: Any
) -> None:
    data = json.loads(json.dumps(MANIFEST))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(ValueError, match=r"manifest|must|wrong type"):
        manifest_from_dict(data)


def test_history_skips_malformed_files_and_report_refuses_them(tmp_path: Path) -> None:
    store = tmp_path / "artemis-runs" / "p"
    store.mkdir(parents=True)
    (store / "abcdefghijkl.json").write_text(json.dumps(MANIFEST), "utf-8")
    bad = {**MANIFEST, "run_id": "badbadbadbad", "metrics": {"success_rate": "x"}}
    (store / "badbadbadbad.json").write_text(json.dumps(bad), "utf-8")
    assert [r.run_id for r in LocalStorage(tmp_path / "artemis-runs").runs()] == [
        "abcdefghijkl",
        "badbadbadbad",
    ]
    with pytest.raises(ValueError, match=r"wrong type|must"):
        read_manifest_file(store / "badbadbadbad.json")
    done = akit("report", "badbadbadbad", cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    history = akit("history", cwd=tmp_path)
    assert history.returncode == 0
    assert "badbadbadbad" in history.stdout
