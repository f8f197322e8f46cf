"""The semantic judge (SPEC 3.3, 20): explicit, separately budgeted, never implicit.

A judge scores a rubric 0–1 against exactly what the requirement's ``sees`` lists,
``samples`` times; the median score decides and the record keeps min, median and
max. Its failures (transport error, unparseable verdict, exhausted budget, timeout)
make that requirement *unavailable* — never passed.
"""

from __future__ import annotations

import json
import re
import statistics
from typing import TYPE_CHECKING, Literal

import anyio
import attrs

from artemiskit._errors import InvalidResponseError
from artemiskit.engine._run_evidence import judge_context, sight_kinds
from artemiskit.providers._judge_config import (
    DEFAULT_JUDGE_MAX_REQUESTS,
    DEFAULT_JUDGE_MAX_TOKENS,
    DEFAULT_JUDGE_TIMEOUT_MS,
)
from artemiskit.records._verification import (
    JudgeEntry,
    JudgeScores,
    RequirementResult,
    Verdict,
)
from artemiskit.targets._protocol import AgentTarget, Message, TargetRequest
from artemiskit.targets._responses import check_response

if TYPE_CHECKING:
    from artemiskit.engine._run_evidence import RunEvidence
    from artemiskit.workflow._model import JudgeOutcome

__all__ = ["JudgeSettings", "JudgeUsage", "run_judge"]

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


class _Sampling:
    """One requirement's samples so far: valid scores, or the first failure."""

    __slots__ = ("failure", "scores")

    def __init__(self) -> None:
        self.scores: list[float] = []
        self.failure: str | None = None


def _result(outcome: JudgeOutcome, sampling: _Sampling) -> RequirementResult:
    spec = outcome.judge
    scores = sorted(sampling.scores)
    spread = None
    if scores:
        spread = JudgeScores(
            min=scores[0], median=statistics.median(scores), max=scores[-1]
        )
    entry = JudgeEntry(sees=sight_kinds(spec.sees), samples=spec.samples, scores=spread)
    if sampling.failure is not None or spread is None or len(scores) < spec.samples:
        # a failed sample, or the judge's deadline before every sample answered
        status: Verdict = "unavailable"
        reason = sampling.failure or "judge_timeout"
    elif spread.median >= spec.threshold:
        status, reason = "passed", "judge_score_met"
    else:
        status, reason = "failed", "judge_score_below_threshold"
    return RequirementResult(
        id=outcome.id, kind="judge", status=status, reason=reason, judge=entry
    )


async def run_judge(
    settings: JudgeSettings,
    outcomes: list[JudgeOutcome],
    *,
    evidence: RunEvidence,
) -> tuple[dict[str, RequirementResult], JudgeUsage]:
    """Score every judge outcome ``samples`` times; results by id, and the usage.

    Each request carries the rubric and exactly what the outcome's ``sees``
    lists. Cancellation propagates; every other judge failure makes the
    requirement unavailable with a reason code.
    """
    account = _Account()
    sampled = {outcome.id: _Sampling() for outcome in outcomes}
    with anyio.move_on_after(settings.timeout_ms / 1000):
        for outcome in outcomes:
            sampling = sampled[outcome.id]
            context = judge_context(outcome.judge.sees, evidence)
            for _ in range(outcome.judge.samples):
                score, failure = await _ask(settings, account, outcome, context)
                if failure is not None:
                    sampling.failure = failure
                    break
                assert score is not None
                sampling.scores.append(score)
    return {o.id: _result(o, sampled[o.id]) for o in outcomes}, account.usage


class _Account:
    """The judge's usage so far; a request in flight counts as unmeasured."""

    __slots__ = ("usage",)

    def __init__(self) -> None:
        self.usage = JudgeUsage()


async def _ask(
    settings: JudgeSettings, account: _Account, outcome: JudgeOutcome, context: str
) -> tuple[float | None, str | None]:
    """One judge request: the score, or the reason it gave none."""
    usage = account.usage
    if usage.requests >= settings.max_requests:
        return None, "judge_budget_exhausted"
    tokens = usage.input_tokens + usage.output_tokens
    if settings.max_tokens is not None and (
        usage.unmeasured_responses or tokens >= settings.max_tokens
    ):
        return None, "judge_budget_exhausted"
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
    # cut off or failed, a request may have consumed tokens: unmeasured until told
    account.usage = attrs.evolve(
        usage, unmeasured_responses=usage.unmeasured_responses + 1
    )
    try:
        response = await settings.target.respond(request)
        check_response(response)
    except anyio.get_cancelled_exc_class():
        raise
    except InvalidResponseError:
        return None, "invalid_verdict"
    except Exception:
        return None, "judge_failure"
    if response.usage is not None:
        account.usage = attrs.evolve(
            usage,
            input_tokens=usage.input_tokens + response.usage.input_tokens,
            output_tokens=usage.output_tokens + response.usage.output_tokens,
        )
    score = _score(response.text)
    return score, None if score is not None else "invalid_verdict"
