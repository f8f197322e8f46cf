"""The targets that record and replay model exchanges (SPEC 22).

Both wrap the run's own target (or the judge's), so the engine drives them like
any `AgentTarget`: admission, budgets, ledger and records are the same whether a
response came from a provider or from a cassette. `ReplayingTarget` answers each
request from the cassette by position, checking the request's digest in strict
mode, and hands over to the live target after ``until`` responses (a fork);
`RecordingTarget` keeps every exchange that passes through it, whatever answered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import attrs

from artemiskit._errors import (
    ArtemisError,
    InvalidResponseError,
    ReplayMismatchError,
    TargetError,
)
from artemiskit.providers._replay_digests import RequestDigests
from artemiskit.records._cassette import (
    CassetteExchange,
    ExchangeKind,
    encode_request,
    recorded_request_problem,
)
from artemiskit.targets._protocol import (
    AgentTarget,
    ResumableTarget,
    TargetRequest,
    TargetResponse,
)
from artemiskit.targets._responses import check_response

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Mapping, Sequence

__all__ = [
    "OFFLINE",
    "ExchangeLog",
    "RecordingTarget",
    "ReplayMode",
    "ReplayingTarget",
]

ReplayMode = Literal["strict", "lenient"]
"""``strict`` checks each request's digest; ``lenient`` only its position."""


class ExchangeLog:
    """The exchanges a run made so far, per kind (a resumed run's included)."""

    __slots__ = ("exchanges", "steps")

    def __init__(self) -> None:
        self.exchanges: list[CassetteExchange] = []
        self.steps = {"model": 0, "judge": 0}

    def continue_after(self, earlier: Sequence[CassetteExchange]) -> None:
        """Put a paused run's recorded exchanges before this attempt's."""
        self.exchanges[:0] = earlier
        for exchange in earlier:
            self.steps[exchange.kind] += 1

    def add(self, exchange: CassetteExchange) -> None:
        """Keep one finished exchange."""
        self.exchanges.append(exchange)

    def next_step(self, kind: ExchangeKind) -> int:
        """The step number of the next exchange of ``kind``."""
        self.steps[kind] += 1
        return self.steps[kind]


async def _close(target: object) -> None:
    aclose = getattr(target, "aclose", None)
    if aclose is not None:
        await aclose()


def _resume(target: object, model_requests: int) -> None:
    if isinstance(target, ResumableTarget):
        target.resume_after(model_requests)


class RecordingTarget:
    """Passes every request to ``inner`` and keeps the exchange in ``log``.

    A failure the inner target raises is kept too (its type, reason code and
    message), so a replay fails the same way; a cancelled request is not kept
    (it has no response).
    """

    def __init__(
        self,
        inner: AgentTarget,
        log: ExchangeLog,
        *,
        kind: ExchangeKind,
        parameters: Mapping[str, Any],
    ) -> None:
        self._inner = inner
        self._log = log
        self._kind: ExchangeKind = kind
        self._parameters = dict(parameters)
        self._digests = RequestDigests(parameters)

    def __repr__(self) -> str:
        return f"RecordingTarget(kind={self._kind!r})"

    async def respond(self, request: TargetRequest) -> TargetResponse:
        """Answer through the inner target and record the exchange."""
        retries: list[str] = []
        admission = request.retry_admission
        if admission is not None:

            async def counted(reason: str, delay_s: float) -> bool:
                admitted = await admission(reason, delay_s)
                if admitted:
                    retries.append(reason)
                return admitted

            request = attrs.evolve(request, retry_admission=counted)
        sent = encode_request(request, self._parameters)
        digest = self._digests.digest(request)
        error: dict[str, str] | None = None
        response: TargetResponse | None = None
        try:
            answer = await self._inner.respond(request)
            check_response(answer)
            response = answer
        except InvalidResponseError as exc:
            error = {
                "type": "invalid_response",
                "reason": exc.reason,
                "message": exc.message,
            }
            raise
        except ArtemisError as exc:
            error = {"type": "target", "reason": exc.reason, "message": exc.message}
            raise
        except Exception:
            error = {
                "type": "target",
                "reason": "target_failure",
                "message": "the agent target raised an error",
            }
            raise
        finally:
            if response is not None or error is not None:
                self._log.add(
                    CassetteExchange(
                        kind=self._kind,
                        step=self._log.next_step(self._kind),
                        recorded=sent,
                        request_digest=digest,
                        response=response,
                        error=error,
                        retries=tuple(retries),
                    )
                )
        return response

    def resume_after(self, model_requests: int) -> None:
        """Pass a resume on to the inner target."""
        _resume(self._inner, model_requests)

    async def aclose(self) -> None:
        """Close the inner target."""
        await _close(self._inner)


def _differences(recorded: Mapping[str, Any], sent: Mapping[str, Any]) -> list[str]:
    """The names of the request fields that differ (never their content)."""
    if recorded_request_problem(recorded):
        return ["the recorded request (malformed: the cassette was edited)"]
    names: list[str] = []
    if recorded["messages"] != sent["messages"]:
        names.append(_message_difference(recorded["messages"], sent["messages"]))
    for field in ("tools", "parameters"):
        if recorded[field] != sent[field]:
            names.append(field)
    # every field as recorded: the recorded digest is not its request's (edited)
    return names or ["the recorded request digest"]


def _message_difference(
    recorded: Sequence[Mapping[str, Any]], sent: Sequence[Mapping[str, Any]]
) -> str:
    """``messages``, or which tool result differs when the first change is one."""
    for index, (old, new) in enumerate(zip(recorded, sent, strict=False)):
        if old == new:
            continue
        if old["role"] == "tool" and new["role"] == "tool":
            name = _tool_name(sent[:index], new["tool_call_id"])
            return f"messages (the tool result of {name}, message {index + 1})"
        return f"messages (message {index + 1})"
    return f"messages (the recorded request had {len(recorded)}, this one {len(sent)})"


def _tool_name(earlier: Sequence[Mapping[str, Any]], call_id: object) -> str:
    for message in reversed(earlier):
        for call in message["tool_calls"]:
            if call["id"] == call_id:
                return str(call["name"])
    return "a tool"


class ReplayingTarget:
    """Answers requests from recorded exchanges by position, then from ``live``.

    Args:
        exchanges: The recorded exchanges of one kind, in order.
        kind: ``model`` or ``judge`` (named in messages).
        mode: ``strict`` stops at the first request whose digest differs from
            the recorded one (`ReplayMismatchError`); ``lenient`` checks only
            the position.
        until: Replay this many responses, then ask ``live`` (a fork);
            ``None`` replays every request.
        live: The live target after the fork (``None`` without one).
        parameters: The model settings sent with each request (see
            `encode_request`).
    """

    def __init__(
        self,
        exchanges: Sequence[CassetteExchange],
        *,
        kind: ExchangeKind,
        mode: ReplayMode,
        until: int | None,
        live: AgentTarget | None,
        parameters: Mapping[str, Any],
    ) -> None:
        self._exchanges = tuple(exchanges)
        self._kind = kind
        self._mode = mode
        self._until = until
        self._live = live
        self._parameters = dict(parameters)
        self._digests = RequestDigests(parameters)
        self._position = 0
        self._forked = False

    def __repr__(self) -> str:
        return f"ReplayingTarget(kind={self._kind!r}, mode={self._mode!r})"

    def load(self, exchanges: Sequence[CassetteExchange]) -> None:
        """Take the recorded exchanges (once the cassette is loaded and checked)."""
        self._exchanges = tuple(exchanges)

    def _what(self) -> str:
        return "judge request" if self._kind == "judge" else "model request"

    async def respond(self, request: TargetRequest) -> TargetResponse:
        """The recorded answer of this position, or the live target's after a fork."""
        if self._until is not None and self._position >= self._until:
            if self._live is None:
                raise ReplayMismatchError(
                    f"replay: step {self._position + 1} comes after the fork and "
                    "there is no live target",
                    reason="cassette_exhausted",
                )
            if not self._forked:
                self._forked = True
                _resume(self._live, self._position)
            self._position += 1
            return await self._live.respond(request)
        self._position += 1
        step = self._position
        if step > len(self._exchanges):
            raise ReplayMismatchError(
                f"replay: the cassette holds {len(self._exchanges)} "
                f"{self._what()}s; step {step} has no recorded response",
                reason="cassette_exhausted",
            )
        exchange = self._exchanges[step - 1]
        if (
            self._mode == "strict"
            and self._digests.digest(request) != exchange.request_digest
        ):
            sent = encode_request(request, self._parameters)
            fields = ", ".join(_differences(exchange.request, sent))
            raise ReplayMismatchError(
                f"replay mismatch at step {step} ({self._what()}): {fields} "
                "differ from the recorded request",
                reason="replay_mismatch",
            )
        await self._replay_retries(exchange, request.retry_admission)
        if exchange.error is not None:
            raise _recorded_failure(exchange.error)
        assert exchange.response is not None  # the loader checked it
        return exchange.response

    async def _replay_retries(
        self,
        exchange: CassetteExchange,
        admission: Callable[[str, float], Awaitable[bool]] | None,
    ) -> None:
        """Admit the accounted retries the recorded request took, without waiting."""
        for reason in exchange.retries:
            if admission is None or not await admission(reason, 0.0):
                raise ReplayMismatchError(
                    f"replay: step {exchange.step} took an accounted retry that "
                    "this run does not admit",
                    reason="replay_mismatch",
                )

    def resume_after(self, model_requests: int) -> None:
        """Continue after the requests a paused run already made."""
        self._position = model_requests
        if self._until is not None and model_requests > self._until:
            self._forked = True
            _resume(self._live, model_requests)

    async def aclose(self) -> None:
        """Close the live target, if any."""
        if self._live is not None:
            await _close(self._live)


def _recorded_failure(error: Mapping[str, str]) -> ArtemisError:
    """The failure a recorded exchange met, raised again with its reason code."""
    if error["type"] == "invalid_response":
        return InvalidResponseError(error["message"], reason=error["reason"])
    return TargetError(error["message"], reason=error["reason"])


class _Offline:
    """The live target of a full replay: there is none, and it is never asked."""

    def __repr__(self) -> str:
        return "OFFLINE"

    async def respond(self, request: TargetRequest) -> TargetResponse:
        """Refuse: a full replay answers every request from its cassette."""
        raise ReplayMismatchError(
            "replay: the cassette holds no more responses and there is no live target",
            reason="cassette_exhausted",
        )


OFFLINE: AgentTarget = _Offline()
"""The stand-in target of a full replay (no transport, no credential)."""
