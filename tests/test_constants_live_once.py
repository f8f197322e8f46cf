"""Constants and defaults live once: every entry point reads the same value.

The cleanup bound (SPEC 3.2, at most 10,000 ms) is `MAX_CLEANUP_TIMEOUT_MS` for the
SDK, the sandbox and the CLI alike; a judge configuration that leaves its limits
out gets the same defaults as a `JudgeSettings` made in code.
"""

from __future__ import annotations

import attrs
import pytest

from artemiskit import ArtemisKit, WorkflowError
from artemiskit.engine._judge import JudgeSettings
from artemiskit.environments import MAX_CLEANUP_TIMEOUT_MS
from artemiskit.providers import parse_judge_config
from tests._builders import workflow_dict
from tests._cli import akit
from tests._runs import ReplayTarget


def test_the_cleanup_bound_is_10_000_ms() -> None:
    assert MAX_CLEANUP_TIMEOUT_MS == 10_000


async def test_the_sdk_takes_the_bound_and_refuses_past_it() -> None:
    kit = ArtemisKit()
    data = workflow_dict(outcomes=[])
    result = await kit.run_workflow(
        workflow=data, target=ReplayTarget(), cleanup_timeout_ms=MAX_CLEANUP_TIMEOUT_MS
    )
    assert result.record.cleanup.timeout_ms == MAX_CLEANUP_TIMEOUT_MS
    with pytest.raises(WorkflowError, match=str(MAX_CLEANUP_TIMEOUT_MS)):
        await kit.run_workflow(
            workflow=data,
            target=ReplayTarget(),
            cleanup_timeout_ms=MAX_CLEANUP_TIMEOUT_MS + 1,
        )


def test_the_cli_refuses_past_the_same_bound() -> None:
    done = akit(
        "workflow",
        "run",
        "workflow.yaml",
        "--cleanup-timeout",
        str(MAX_CLEANUP_TIMEOUT_MS + 1),
    )
    assert done.returncode == 2
    assert f"1<=x<={MAX_CLEANUP_TIMEOUT_MS}" in done.stderr


def test_judge_defaults_are_the_same_from_a_file_and_in_code() -> None:
    parsed = parse_judge_config("provider: scripted\nmodel: judge\n")
    defaults = {
        name: field.default
        for name, field in attrs.fields_dict(JudgeSettings).items()
        if name in ("max_requests", "max_tokens", "timeout_ms")
    }
    assert defaults == {
        "max_requests": parsed.max_requests,
        "max_tokens": parsed.max_tokens,
        "timeout_ms": parsed.timeout_ms,
    }


def test_a_provider_retry_delay_has_one_default() -> None:
    from artemiskit.providers import ProviderRetryPolicy, parse_trusted_config

    parsed = parse_trusted_config(
        "providers:\n  local:\n    type: openai\n    base_url: http://127.0.0.1:9/v1\n"
        "    api_key_env: NONE\n    retry:\n      on: [rate_limited]\n"
        "      max_attempts: 2\n"
    )
    field = attrs.fields_dict(ProviderRetryPolicy)["max_delay_ms"]
    retry = parsed.providers["local"].retry
    assert retry is not None
    assert retry.max_delay_ms == field.default


def test_every_cleanup_wait_takes_the_one_rule() -> None:
    from artemiskit.environments._base import cleanup_bound_ms

    assert cleanup_bound_ms(None, 1000) == 1000
    assert cleanup_bound_ms(250, 1000) == 250
    assert cleanup_bound_ms(None, MAX_CLEANUP_TIMEOUT_MS + 1) == MAX_CLEANUP_TIMEOUT_MS


async def test_a_sandbox_run_past_the_bound_is_refused_as_a_workflow_error() -> None:
    # the bound is checked before the sandbox factory is built (which would
    # raise a bare ValueError), so the caller gets the typed error
    data = workflow_dict(outcomes=[], environment={"kind": "sandbox", "files": {}})
    with pytest.raises(WorkflowError, match=str(MAX_CLEANUP_TIMEOUT_MS)):
        await ArtemisKit().create_workflow_session(
            workflow=data,
            target=ReplayTarget(),
            cleanup_timeout_ms=MAX_CLEANUP_TIMEOUT_MS + 1,
        )
