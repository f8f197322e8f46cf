"""The semantic judge (SPEC 3.3): explicit, separately budgeted, never implicit.

A judge scores a rubric 0–1 against the run's final answer and files. Its failures
(transport error, unparseable verdict, exhausted budget, timeout) make that
requirement *unavailable* — never passed.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, Literal

import anyio
import attrs

from artemiskit._errors import InvalidResponseError
from artemiskit.config._judge import (
    DEFAULT_JUDGE_MAX_REQUESTS,
    DEFAULT_JUDGE_MAX_TOKENS,
    DEFAULT_JUDGE_TIMEOUT_MS,
)
from artemiskit.engine._responses import check_response
from artemiskit.targets._protocol import AgentTarget, Message, TargetRequest

if TYPE_CHECKING:
    from collections.abc import Mapping

    from artemiskit.workflow._model import JudgeOutcome

__all__ = ["JudgeSettings", "JudgeUsage", "run_judge"]

MAX_JUDGE_CONTEXT_CHARS = 32_000
_VERDICT = re.compile(r"\{[^{}]*\}")


@attrs.frozen(kw_only=True)
class JudgeSettings:
    """An explicitly configured judge: its own target, model and limits.

    Attributes:
        target: The judge's own agent target (its own transport).
        provider: The provider label shown in the record.
        model: The judge model name shown in the record.
        max_requests: The judge's own request budget.
        max_tokens: The judge's own token budget (provider-reported).
        timeout_ms: The judge's own deadline for all its requests.
        transport_digest: A digest of the judge's transport configuration.
    """

    target: AgentTarget
    provider: str
    model: str
    max_requests: int = DEFAULT_JUDGE_MAX_REQUESTS
    max_tokens: int | None = DEFAULT_JUDGE_MAX_TOKENS
    timeout_ms: int = DEFAULT_JUDGE_TIMEOUT_MS
    transport_digest: str | None = None


@attrs.frozen(kw_only=True)
class JudgeUsage:
    """What the judge consumed, reported apart from the run's budgets."""

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    unmeasured_responses: int = 0

    @property
    def usage_measurement(self) -> Literal["complete", "partial", "unavailable"]:
        """Whether every judge response reported usage."""
        if self.unmeasured_responses == 0:
            return "complete"
        if self.unmeasured_responses == self.requests:
            return "unavailable"
        return "partial"


def _context(final_response: str | None, files: Mapping[str, str]) -> str:
    parts = [f"FINAL ANSWER:\n{final_response or '(none)'}"]
    for path, content in sorted(files.items()):
        parts.append(f"FILE {path}:\n{content}")
    return "\n\n".join(parts)[:MAX_JUDGE_CONTEXT_CHARS]


def _score(text: str | None) -> float | None:
    if not text:
        return None
    for candidate in [text, *_VERDICT.findall(text)]:
        try:
            data = json.loads(candidate)
        except (ValueError, RecursionError):
            continue
        score = data.get("score") if isinstance(data, dict) else None
        if isinstance(score, int | float) and not isinstance(score, bool):
            return float(score) if 0.0 <= score <= 1.0 else None
    return None


async def run_judge(
    settings: JudgeSettings,
    outcomes: list[JudgeOutcome],
    *,
    final_response: str | None,
    files: Mapping[str, str],
) -> tuple[dict[str, tuple[Any, str]], JudgeUsage]:
    """Score every judge outcome; return verdicts by outcome id and the usage.

    Cancellation propagates; every other judge failure makes the requirement
    unavailable with a reason code.
    """
    verdicts: dict[str, tuple[Any, str]] = {}
    usage = JudgeUsage()
    context = _context(final_response, files)
    with anyio.move_on_after(settings.timeout_ms / 1000) as scope:
        for outcome in outcomes:
            if usage.requests >= settings.max_requests:
                verdicts[outcome.id] = ("unavailable", "judge_budget_exhausted")
                continue
            tokens = usage.input_tokens + usage.output_tokens
            if settings.max_tokens is not None and (
                usage.unmeasured_responses or tokens >= settings.max_tokens
            ):
                verdicts[outcome.id] = ("unavailable", "judge_budget_exhausted")
                continue
            request = TargetRequest(
                messages=(
                    Message(
                        role="system",
                        content="You are a strict evaluator. Score how well the "
                        "work meets the rubric from 0.0 to 1.0. Reply with JSON "
                        'only: {"score": <number>}.',
                    ),
                    Message(
                        role="user",
                        content=f"RUBRIC:\n{outcome.judge.rubric}\n\n{context}",
                    ),
                ),
                tools=(),
                max_output_tokens=None
                if settings.max_tokens is None
                else max(settings.max_tokens - tokens, 0),
            )
            usage = attrs.evolve(usage, requests=usage.requests + 1)
            unmeasured = attrs.evolve(
                usage, unmeasured_responses=usage.unmeasured_responses + 1
            )
            try:
                response = await settings.target.respond(request)
                check_response(response)
            except anyio.get_cancelled_exc_class():
                usage = unmeasured  # cut off: it may have consumed tokens
                raise
            except InvalidResponseError:
                usage = unmeasured
                verdicts[outcome.id] = ("unavailable", "invalid_verdict")
                continue
            except Exception:
                usage = unmeasured
                verdicts[outcome.id] = ("unavailable", "judge_failure")
                continue
            if response.usage is None:
                usage = unmeasured
            else:
                usage = attrs.evolve(
                    usage,
                    input_tokens=usage.input_tokens + response.usage.input_tokens,
                    output_tokens=usage.output_tokens + response.usage.output_tokens,
                )
            score = _score(response.text)
            if score is None:
                verdicts[outcome.id] = ("unavailable", "invalid_verdict")
            elif score >= outcome.judge.threshold:
                verdicts[outcome.id] = ("passed", "judge_score_met")
            else:
                verdicts[outcome.id] = ("failed", "judge_score_below_threshold")
    if scope.cancelled_caught:
        for outcome in outcomes:
            verdicts.setdefault(outcome.id, ("unavailable", "judge_timeout"))
    return verdicts, usage
