"""Redaction, pricing, metrics and provenance follow the TypeScript rules."""

from __future__ import annotations

import pytest

from artemiskit import ConfigError
from artemiskit.prompt_response import (
    CaseResult,
    RedactionSettings,
    format_cost,
    format_duration,
)
from artemiskit.prompt_response._manifest import Tokens
from artemiskit.prompt_response._metrics import compute_metrics
from artemiskit.prompt_response._pricing import estimate_cost, model_pricing
from artemiskit.prompt_response._provenance import ci_info
from artemiskit.prompt_response._redaction import Redactor, effective_redaction


def test_patterns_run_in_order_phone_before_credit_card() -> None:
    redactor = Redactor.from_settings(RedactionSettings(enabled=True))
    assert redactor.redact("card 4111-1111-1111-1111").text == (
        "card 4111-[REDACTED]-1111"
    )
    done = redactor.redact("mail a@b.co, ssn 123-45-6789, password=hunter2")
    assert done.text == "mail [REDACTED], ssn [REDACTED], [REDACTED]"
    assert done.count == 3


def test_ipv4_and_jwt_only_when_named_and_custom_patterns() -> None:
    default = Redactor.from_settings(RedactionSettings(enabled=True))
    assert default.redact("10.0.0.1").count == 0
    named = Redactor.from_settings(
        RedactionSettings(enabled=True, patterns=("ipv4", r"ORDER-\d+"))
    )
    assert named.names == ("ipv4", "custom:ORDER-\\d+")
    assert named.redact("10.0.0.1 ORDER-42").text == "[REDACTED] [REDACTED]"
    # The original skipped an unusable pattern (and so leaked what it was for).
    for unusable in ("(", r"(a)\1", "(?<=x)y"):
        with pytest.raises(ConfigError, match="redaction pattern"):
            Redactor.from_settings(
                RedactionSettings(enabled=True, patterns=("ipv4", unusable))
            )


def test_a_case_block_without_enabled_turns_redaction_off() -> None:
    scenario = RedactionSettings(enabled=True, replacement="#")
    case = RedactionSettings(patterns=("email",))
    assert effective_redaction(None, case, scenario) is None
    merged = effective_redaction(None, RedactionSettings(enabled=True), scenario)
    assert merged is not None
    assert merged.replacement == "#"
    cli = effective_redaction(RedactionSettings(enabled=True), case, scenario)
    assert cli is not None
    assert cli.patterns == ("email",)


@pytest.mark.parametrize(
    ("model", "prices"),
    [
        ("gpt-4o", (0.0025, 0.01)),
        ("GPT-4O-MINI", (0.00015, 0.0006)),
        ("azure/gpt-4o-mini-2024", (0.00015, 0.0006)),
        ("my-o1-claude", (0.015, 0.06)),
        ("claude-3-haiku-20240307", (0.00025, 0.00125)),
        ("claude-next", (0.003, 0.015)),
        ("llama-3", (0.003, 0.015)),
    ],
)
def test_pricing_lookup(model: str, prices: tuple[float, float]) -> None:
    pricing = model_pricing(model)
    assert (pricing.prompt_per_1k, pricing.completion_per_1k) == prices


def test_cost_and_formatting() -> None:
    prompt, completion, _ = estimate_cost("gpt-4o", 1000, 500)
    assert (prompt, completion) == (0.0025, 0.005)
    # The original said "$0.1200 cents" (dollars and cents at once).
    assert format_cost(0.0012) == "$0.001200"
    assert format_cost(0.001425) == "$0.001425"
    assert format_cost(0.5) == "$0.5000"
    assert format_cost(12.345) == "$12.35"
    assert [format_duration(ms) for ms in (850, 12345, 125000)] == [
        "850ms",
        "12.3s",
        "2m 5s",
    ]


def _case(ok: bool, latency: float) -> CaseResult:
    return CaseResult(
        id="c",
        ok=ok,
        score=1.0 if ok else 0.0,
        matcher_type="exact",
        latency_ms=latency,
        tokens=Tokens(prompt=10, completion=5, total=15),
        prompt="p",
        response="r",
        expected={"type": "exact"},
    )


def test_median_is_the_upper_one_and_p95_an_index() -> None:
    cases = [_case(i % 2 == 0, latency) for i, latency in enumerate([40, 10, 30, 20])]
    metrics = compute_metrics(cases, "gpt-4o")
    assert metrics.median_latency_ms == 30
    assert metrics.p95_latency_ms == 40
    assert (metrics.passed_cases, metrics.failed_cases, metrics.success_rate) == (
        2,
        2,
        0.5,
    )
    assert metrics.total_tokens == 60
    assert metrics.cost is not None
    assert compute_metrics(cases, None).cost is None
    assert compute_metrics([], "gpt-4o").median_latency_ms == 0


def test_ci_provenance() -> None:
    github = ci_info(
        {
            "GITHUB_ACTIONS": "true",
            "GITHUB_RUN_ID": "7",
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_REPOSITORY": "o/r",
        }
    )
    assert github is not None
    assert (github.provider, github.build_id, github.build_url) == (
        "github-actions",
        "7",
        "https://github.com/o/r/actions/runs/7",
    )
    jenkins = ci_info({"JENKINS_URL": "x", "BUILD_ID": "3"})
    assert jenkins is not None
    assert (jenkins.provider, jenkins.build_id, jenkins.build_url) == (
        "jenkins",
        "3",
        None,
    )
    assert ci_info({}) is None


def test_run_ids_never_read_as_an_option() -> None:
    from artemiskit.prompt_response._runner import new_run_id

    ids = [new_run_id() for _ in range(2000)]
    assert all(len(i) == 12 and not i.startswith("-") for i in ids)
    assert len(set(ids)) == len(ids)
