"""A collector that is down, refuses, or answers late changes nothing but counts."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import ArtemisKit, ConfigError
from artemiskit.providers import parse_trusted_config
from artemiskit.records import record_to_dict
from artemiskit.telemetry import INSTALL_HINT, Telemetry, TelemetryConfig
from tests._builders import write_workflow
from tests.telemetry._receiver import closed_port_endpoint

if TYPE_CHECKING:
    from pathlib import Path

    from tests.telemetry._receiver import Receiver

_VOLATILE = {"run_id", "attempt_id", "started_at", "finished_at", "duration_ms"}


def _stable(value: Any) -> Any:
    """The record without ids, times and the telemetry part."""
    if isinstance(value, dict):
        return {
            key: _stable(item)
            for key, item in value.items()
            if key not in _VOLATILE and key != "telemetry"
        }
    if isinstance(value, list):
        return [_stable(item) for item in value]
    return value


async def _record(path: Path, endpoint: str | None) -> dict[str, Any]:
    telemetry = (
        None if endpoint is None else Telemetry(TelemetryConfig(otlp_endpoint=endpoint))
    )
    result = await ArtemisKit().run_workflow(workflow=path, telemetry=telemetry)
    return record_to_dict(result.record)


async def test_a_collector_that_is_down_changes_only_the_counts(tmp_path: Path) -> None:
    path = write_workflow(tmp_path)
    plain = await _record(path, None)
    down = await _record(path, closed_port_endpoint())
    assert down["exit_code"] == plain["exit_code"] == 0
    assert _stable(down) == _stable(plain)
    assert down["telemetry"] == {"exported": 0, "dropped": 6}


async def test_a_refusing_collector_counts_every_span_dropped(
    tmp_path: Path, receiver: Receiver
) -> None:
    receiver.status = 503
    record = await _record(write_workflow(tmp_path), receiver.endpoint)
    assert record["exit_code"] == 0
    assert record["telemetry"] == {"exported": 0, "dropped": 6}
    assert len(receiver.paths) == 1  # one batch, never retried past the bound


async def test_a_collector_slower_than_the_flush_bound_counts_them_dropped(
    tmp_path: Path, receiver: Receiver
) -> None:
    receiver.delay_s = 3.0  # the collector answers after the 1 s flush bound
    record = await _record(write_workflow(tmp_path), receiver.endpoint)
    assert record["exit_code"] == 0
    assert record["telemetry"] == {"exported": 0, "dropped": 6}


def test_without_the_extra_telemetry_is_refused_with_the_hint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "opentelemetry.sdk.trace", None)
    with pytest.raises(ConfigError, match="otel") as caught:
        Telemetry(TelemetryConfig(otlp_endpoint="http://127.0.0.1:4318"))
    assert INSTALL_HINT in str(caught.value)
    assert caught.value.reason == "otel_extra_missing"
    assert caught.value.exit_code == 1


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ("telemetry: []", "must be a mapping"),
        ("telemetry: {}", "is required"),
        ("telemetry: {otlp_endpoint: 'file:///etc/passwd'}", "http(s) URL"),
        ("telemetry: {otlp_endpoint: 'http://u:p@127.0.0.1:1'}", "plain base URL"),
        ("telemetry: {otlp_endpoint: 'http://x', colour: red}", "unknown key"),
        (
            "telemetry: {otlp_endpoint: 'http://x', headers_env: {a: 'no-way'}}",
            "variable",
        ),
        ("telemetry: {otlp_endpoint: 'http://x', headers_env: []}", "header names"),
        ("telemetry: {otlp_endpoint: 'http://x', service_name: ''}", "1-128"),
    ],
)
def test_a_bad_telemetry_section_is_a_located_configuration_error(
    section: str, message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_trusted_config(section + "\n", source="c.yaml")
    assert message in "\n".join(caught.value.errors)
    assert "$.telemetry" in "\n".join(caught.value.errors)
    assert "line 1" in "\n".join(caught.value.errors)
