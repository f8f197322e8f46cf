"""The prompt-response runner: cases against a model, into a manifest.

Per case: substitute variables, send the conversation (one request, cut off by the
case timeout, which cancels the request), evaluate the raw response, then redact
what the manifest stores. A failed attempt (transport error, timeout, evaluator
error) is retried ``retries`` times with a backoff of 1 s, 2 s, 4 s ... (at most
60 s); cases run in a bounded pool of ``concurrency`` and results keep case order.
"""

from __future__ import annotations

import math
import os
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import attrs

from artemiskit._common._pool import run_bounded
from artemiskit._errors import ArtemisError, ConfigError
from artemiskit.prompt_response._embeddings import OpenAIEmbeddings
from artemiskit.prompt_response._manifest import (
    CaseRedaction,
    CaseResult,
    Provenance,
    RedactionInfo,
    RedactionSummary,
    ResolvedConfig,
    RunConfig,
    RunManifest,
    Tokens,
)
from artemiskit.prompt_response._metrics import compute_metrics
from artemiskit.prompt_response._provenance import ci_info, environment_info, git_info
from artemiskit.prompt_response._redaction import (
    RedactionSettings,
    Redactor,
    effective_redaction,
    withhold_secrets,
)
from artemiskit.prompt_response._targets import (
    JudgeGrader,
    TargetPool,
    known_secrets,
    provider_entry,
)
from artemiskit.prompt_response._variables import substitute_variables
from artemiskit.prompt_response.evaluators._base import Evaluation, EvaluationContext
from artemiskit.prompt_response.evaluators._registry import evaluate_expectation
from artemiskit.providers._config import TrustedConfig
from artemiskit.targets import Message, TargetRequest

if TYPE_CHECKING:
    from artemiskit.prompt_response._scenario import Case, Scenario
    from artemiskit.providers._config import ProviderConfig
    from artemiskit.providers._judge_config import JudgeConfig

__all__ = ["NoCasesError", "ScenarioRunOptions", "new_run_id", "run_scenario"]

_MAX_BACKOFF_S = 60.0
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"


class NoCasesError(ConfigError):
    """The tag filter left no case to run."""

    default_reason = "no_cases"


@attrs.frozen(kw_only=True)
class ScenarioRunOptions:
    """How to run a scenario (the ``akit run`` flags, as one value).

    Attributes:
        provider: Overrides the scenario's provider entry.
        model: Overrides the scenario's model (a case's own ``model`` still wins).
        tags: Run only cases with any of these tags.
        concurrency: Cases in flight at once.
        timeout_ms: Per-case timeout for cases that set none.
        retries: Retries for cases that set none (honoured, unlike the original).
        backoff_s: The first retry delay; it doubles per attempt.
        redaction: Redaction from the command line (wins when enabled).
        project: The manifest's project.
        default_provider: The provider when neither options nor scenario name one.
        default_model: The model when neither options nor scenario name one.
        default_models: The last resort, by provider entry name (TypeScript
            ``defaultModel``).
        timer: Makes the cancel scope that bounds one request to a case's
            timeout, given in seconds (default `anyio.move_on_after`: real
            time). The case times out when that scope cancels the request; a
            timer of your own decides when, so tests and simulations need not
            wait for the clock.
    """

    provider: str | None = None
    model: str | None = None
    tags: tuple[str, ...] = ()
    concurrency: int = 1
    timeout_ms: float | None = None
    retries: int | None = None
    backoff_s: float = 1.0
    redaction: RedactionSettings | None = None
    project: str = "default"
    default_provider: str | None = None
    default_model: str | None = None
    default_models: dict[str, str] = attrs.field(factory=dict)
    timer: Callable[[float], anyio.CancelScope] = anyio.move_on_after


def new_run_id() -> str:
    """A 12-character run id from ``A-Za-z0-9_-`` (as nanoid).

    It never begins with ``-``, so that it can be given to a command as is.
    """
    first = secrets.choice(_ALPHABET[:-1])
    return first + "".join(secrets.choice(_ALPHABET) for _ in range(11))


def _iso(moment: float) -> str:
    stamp = datetime.fromtimestamp(moment, UTC)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z"


def _conversation(scenario: Scenario, case: Case) -> tuple[Message, ...]:
    variables = {**scenario.variables, **case.variables}
    messages: list[Message] = []
    if scenario.system_prompt is not None:
        system = substitute_variables(scenario.system_prompt, variables)
        messages.append(Message(role="system", content=system))
    if isinstance(case.prompt, str):
        messages.append(
            Message(role="user", content=substitute_variables(case.prompt, variables))
        )
        return tuple(messages)
    for item in case.prompt:
        role: Any = item.role
        messages.append(
            Message(role=role, content=substitute_variables(item.content, variables))
        )
    return tuple(messages)


@attrs.frozen(kw_only=True)
class _Answer:
    text: str
    latency_ms: float
    tokens: Tokens
    verdict: Evaluation


class _CaseRunner:
    def __init__(
        self,
        scenario: Scenario,
        options: ScenarioRunOptions,
        pool: TargetPool,
        model: str,
        context: EvaluationContext,
        secrets: tuple[str, ...],
    ) -> None:
        self.scenario = scenario
        self.options = options
        self.pool = pool
        self.model = model
        self.context = context
        self.secrets = secrets

    async def _attempt(self, case: Case, timeout_ms: float | None) -> _Answer:
        built = await self.pool.target(case.model or self.model)
        request = TargetRequest(
            messages=_conversation(self.scenario, case),
            tools=(),
            max_output_tokens=self.scenario.max_tokens,
        )
        started = time.perf_counter()
        if timeout_ms:
            with self.options.timer(timeout_ms / 1000) as scope:
                response = await built.target.respond(request)
            if scope.cancelled_caught:
                raise TimeoutError(f"Timeout after {_ms(timeout_ms)}ms")
        else:
            response = await built.target.respond(request)
        latency = (time.perf_counter() - started) * 1000
        usage = response.usage
        prompt_tokens = usage.input_tokens if usage else 0
        completion_tokens = usage.output_tokens if usage else 0
        text = response.text or ""
        verdict = await evaluate_expectation(text, case.expected, self.context)
        return _Answer(
            text=text,
            latency_ms=round(latency),
            tokens=Tokens(
                prompt=prompt_tokens,
                completion=completion_tokens,
                total=prompt_tokens + completion_tokens,
            ),
            verdict=verdict,
        )

    async def run(self, case: Case) -> CaseResult:
        retries = (
            case.retries if case.retries is not None else self.options.retries or 0
        )
        timeout_ms = case.timeout_ms or self.options.timeout_ms
        started = time.perf_counter()
        message = ""
        for attempt in range(retries + 1):
            try:
                answer = await self._attempt(case, timeout_ms)
            except (ArtemisError, TimeoutError) as exc:
                message = _safe_message(exc)
                if attempt < retries:
                    delay = self.options.backoff_s * 2 ** min(attempt, 16)
                    await anyio.sleep(min(delay, _MAX_BACKOFF_S))
                continue
            return self._result(case, answer)
        return self._stored(
            case,
            ok=False,
            score=0,
            reason=f"Failed after {retries + 1} attempts: {message}",
            latency_ms=round((time.perf_counter() - started) * 1000),
            tokens=Tokens(),
            response="",
            error=message,
        )

    def _result(self, case: Case, answer: _Answer) -> CaseResult:
        return self._stored(
            case,
            ok=answer.verdict.passed,
            score=answer.verdict.score,
            reason=answer.verdict.reason,
            latency_ms=answer.latency_ms,
            tokens=answer.tokens,
            response=answer.text,
        )

    def _stored(
        self,
        case: Case,
        *,
        ok: bool,
        score: float,
        reason: str | None,
        latency_ms: float,
        tokens: Tokens,
        response: str,
        error: str | None = None,
    ) -> CaseResult:
        """The case's result as stored: redacted, and without any known secret.

        Redaction covers every stored string that can quote model text: the
        prompt's messages, the response, and the reason and error (an ``exact``
        reason quotes the answer); only the prompt and response count as
        redactions, as in the TypeScript manifest. Known credential values are
        removed from all of them whether redaction is on or not.
        """
        prompt: Any = case.recorded_prompt()
        redaction = None
        settings = effective_redaction(
            self.options.redaction, case.redaction, self.scenario.redaction
        )
        if settings is not None:
            redactor = Redactor.from_settings(settings)
            count, prompt_hit, response_hit = 0, False, False
            if redactor.redact_prompts:
                if isinstance(prompt, str):
                    done = redactor.redact(prompt)
                    prompt, count, prompt_hit = done.text, done.count, done.count > 0
                else:
                    for item in prompt:
                        done = redactor.redact(item["content"])
                        item["content"] = done.text
                        count += done.count
                        prompt_hit = prompt_hit or done.count > 0
            if redactor.redact_responses:
                done = redactor.redact(response)
                response, count = done.text, count + done.count
                response_hit = done.count > 0
            if redactor.redact_prompts or redactor.redact_responses:
                reason = None if reason is None else redactor.redact(reason).text
                error = None if error is None else redactor.redact(error).text
            redaction = CaseRedaction(
                redacted=count > 0,
                prompt_redacted=prompt_hit,
                response_redacted=response_hit,
                redaction_count=count,
            )
        secrets = self.secrets
        if isinstance(prompt, str):
            prompt = withhold_secrets(prompt, secrets)
        else:
            for item in prompt:
                item["content"] = withhold_secrets(item["content"], secrets)
        return CaseResult(
            id=case.id,
            name=case.name,
            ok=ok,
            score=score,
            matcher_type=case.expected["type"],
            reason=None if reason is None else withhold_secrets(reason, secrets),
            latency_ms=latency_ms,
            tokens=tokens,
            prompt=prompt,
            response=withhold_secrets(response, secrets),
            expected=case.expected,
            tags=case.tags,
            error=None if error is None else withhold_secrets(error, secrets),
            redaction=redaction if error is None else None,
        )


def _ms(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _safe_message(exc: BaseException) -> str:
    """An error's message: ArtemisKit messages never carry content or secrets."""
    if isinstance(exc, ArtemisError):
        return exc.message
    return str(exc)


def _embedder_for(entry: ProviderConfig, scenario: Scenario) -> OpenAIEmbeddings | None:
    """The embeddings endpoint, when a ``similarity`` case may use one."""
    if entry.type != "openai" or not any(
        _uses_similarity(case.expected) for case in scenario.cases
    ):
        return None
    return OpenAIEmbeddings(entry)


def _uses_similarity(expected: dict[str, Any]) -> bool:
    if expected.get("type") == "combined":
        return any(_uses_similarity(item) for item in expected["expectations"])
    return expected.get("type") == "similarity" and expected.get("mode") != "llm"


def _folder_of(source: str) -> Path:
    return Path(source).absolute().parent


def _selected(scenario: Scenario, tags: tuple[str, ...]) -> tuple[Case, ...]:
    if not tags:
        return scenario.cases
    return tuple(case for case in scenario.cases if set(case.tags) & set(tags))


def _redaction_block(
    options: ScenarioRunOptions, scenario: Scenario, cases: tuple[CaseResult, ...]
) -> RedactionInfo | None:
    chosen = options.redaction if options.redaction is not None else scenario.redaction
    if chosen is None or not chosen.enabled:
        return None
    redactor = Redactor.from_settings(chosen)
    marks = [case.redaction for case in cases if case.redaction is not None]
    return RedactionInfo(
        enabled=True,
        patterns_used=redactor.names,
        replacement=redactor.replacement,
        summary=RedactionSummary(
            prompts_redacted=sum(1 for m in marks if m.prompt_redacted),
            responses_redacted=sum(1 for m in marks if m.response_redacted),
            total_redactions=sum(m.redaction_count for m in marks),
        ),
    )


async def run_scenario(
    scenario: Scenario,
    *,
    options: ScenarioRunOptions | None = None,
    config: TrustedConfig | None = None,
    judge: JudgeConfig | None = None,
) -> RunManifest:
    """Run every selected case of ``scenario`` and build its manifest.

    Args:
        scenario: A loaded scenario.
        options: The run's settings.
        config: The trusted configuration holding provider entries.
        judge: The judge configuration for ``llm_grader`` and ``similarity``.

    Returns:
        The manifest (not saved: see `LocalStorage.save`).

    Raises:
        NoCasesError: The tag filter left no case.
        ConfigError: No model is set, the provider entry is unusable, or a
            redaction pattern of ``options`` cannot run.
        UnsupportedError: The provider type is not available.
    """
    options = options or ScenarioRunOptions()
    config = config or TrustedConfig()
    if options.redaction is not None and options.redaction.enabled:
        Redactor.from_settings(options.redaction)  # an unusable pattern: refused now
    cases = _selected(scenario, options.tags)
    if not cases:
        raise NoCasesError("No test cases to run after filtering")
    provider = options.provider or scenario.provider or options.default_provider
    provider_source = (
        "cli" if options.provider else "scenario" if scenario.provider else "config"
    )
    if provider is None:
        provider, provider_source = "openai", "default"
    model = (
        options.model
        or scenario.model
        or options.default_model
        or options.default_models.get(provider)
    )
    if model is None:
        raise ConfigError(
            f"{scenario.source}: no model: set `model:` in the scenario, give --model, "
            "or set `model:` in the configuration",
            reason="no_model",
        )
    model_source = (
        "cli" if options.model else "scenario" if scenario.model else "config"
    )
    entry, entry_source = provider_entry(provider, config)
    base_dir = _folder_of(scenario.source)
    pool = TargetPool(
        entry, temperature=scenario.temperature, seed=scenario.seed, base_dir=base_dir
    )
    try:
        await pool.target(model)
    except BaseException:
        await pool.aclose()
        raise
    grader = JudgeGrader(judge, config, base_dir) if judge is not None else None
    embedder = _embedder_for(entry, scenario)
    context = EvaluationContext(grader=grader, embedder=embedder)
    secrets = known_secrets(config, judge)
    runner = _CaseRunner(scenario, options, pool, model, context, secrets)
    results: list[CaseResult | None] = [None] * len(cases)

    async def run_case(item: tuple[int, Case]) -> None:
        index, case = item
        results[index] = await runner.run(case)

    started = time.time()
    try:
        # Cases start in file order, at most ``concurrency`` at once.
        limit = min(max(1, options.concurrency), len(cases))
        await run_bounded(enumerate(cases), run_case, limit)
    finally:
        await pool.aclose()
        if grader is not None:
            await grader.aclose()
        if embedder is not None:
            await embedder.aclose()
    ended = time.time()
    done = tuple(result for result in results if result is not None)
    source = {"provider": provider_source, "model": model_source}
    if entry.base_url:
        source["base_url"] = entry_source
    return RunManifest(
        run_id=new_run_id(),
        project=options.project,
        start_time=_iso(started),
        end_time=_iso(ended),
        duration_ms=math.floor((ended - started) * 1000),
        config=RunConfig(
            scenario=scenario.name,
            provider=entry.type,
            model=model,
            temperature=scenario.temperature,
            seed=scenario.seed,
        ),
        resolved_config=ResolvedConfig(
            provider=provider,
            model=model,
            base_url=entry.base_url,
            timeout=entry.request_timeout_ms,
            source={**source, "timeout": entry_source},
        ),
        metrics=compute_metrics(done, model),
        git=git_info(),
        provenance=Provenance(run_by=os.environ.get("USER") or "unknown", ci=ci_info()),
        cases=done,
        environment=environment_info(),
        redaction=_redaction_block(options, scenario, done),
    )
