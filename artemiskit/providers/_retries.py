"""Accounted retries of a provider (SPEC 16): opt-in, admitted, counted, disclosed.

A client never retries by itself (one `complete` call is one HTTP request). When a
provider entry of the trusted configuration has ``retry:``, its target is wrapped in
`AccountedRetries`: a failure that proves the request was not processed (a
`ProviderFailure`: HTTP 429, 503 or 529, a connection refused before anything was
sent) whose class the policy lists is repeated, but only after the engine admitted
the new attempt through the request's ``retry_admission`` callback, which counts it
as a model request of its own (budgets, ledger, ``target.provider_retries``) and
refuses it when the budget or the workflow deadline does not allow it. A server's
``Retry-After`` is honoured; longer than ``max_delay_ms`` it is not waited for.
Without the callback (a target used outside the engine), nothing retries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio
import attrs

from artemiskit._errors import TargetError
from artemiskit.providers._config import ProviderRetryPolicy
from artemiskit.targets import AgentTarget

if TYPE_CHECKING:
    from artemiskit.targets import TargetRequest, TargetResponse

__all__ = ["AccountedRetries", "ProviderFailure"]

_NOT_RETRIED = "; no retry was made"
_FIRST_BACKOFF_S = 0.5


class ProviderFailure(TargetError):
    """A provider failure that proves the request was not processed.

    Attributes:
        retry_class: ``rate_limited``, ``overloaded`` or ``connect_refused``.
        retry_after_s: The server's ``Retry-After`` in seconds, when it sent one.
    """

    def __init__(
        self,
        message: str,
        *,
        reason: str,
        retry_class: str,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(message, reason=reason)
        self.retry_class = retry_class
        self.retry_after_s = retry_after_s


@attrs.frozen
class AccountedRetries:
    """A target whose retryable provider failures are retried as admitted requests."""

    inner: AgentTarget
    policy: ProviderRetryPolicy

    async def respond(self, request: TargetRequest) -> TargetResponse:
        """Answer ``request``, retrying what the policy allows and the engine admits.

        Raises:
            TargetError: The last attempt's failure, saying how many were made.
        """
        attempt = 1
        while True:
            try:
                return await self.inner.respond(request)
            except ProviderFailure as failure:
                if failure.retry_class not in self.policy.on:
                    raise
                delay_s, refusal = self._delay(failure, attempt)
                admit = request.retry_admission
                if refusal is None and admit is None:
                    refusal = "no engine admits retries here (the judge's requests)"
                elif (
                    admit is not None
                    and refusal is None
                    and not await admit(failure.reason, delay_s)
                ):
                    refusal = (
                        "another attempt would pass the workflow's deadline or budget"
                    )
                if refusal is not None:
                    raise _given_up(failure, attempt, refusal) from failure
            await anyio.sleep(delay_s)
            attempt += 1

    def _delay(
        self, failure: ProviderFailure, attempt: int
    ) -> tuple[float, str | None]:
        """How long to wait before the next attempt, or why there is none."""
        limit_s = self.policy.max_delay_ms / 1000
        if attempt >= self.policy.max_attempts:
            return 0.0, f"retry.max_attempts={self.policy.max_attempts} reached"
        if failure.retry_after_s is not None:
            if failure.retry_after_s > limit_s:
                return 0.0, (
                    f"its Retry-After ({failure.retry_after_s:g} s) exceeds "
                    f"retry.max_delay_ms={self.policy.max_delay_ms}"
                )
            return failure.retry_after_s, None
        return min(limit_s, _FIRST_BACKOFF_S * 2 ** (attempt - 1)), None


def _given_up(failure: ProviderFailure, attempts: int, why: str) -> TargetError:
    base = failure.message.removesuffix(_NOT_RETRIED)
    noun = "attempt" if attempts == 1 else "attempts"
    return TargetError(
        f"{base}; {attempts} {noun} made, no further retry: {why}",
        reason=failure.reason,
    )
