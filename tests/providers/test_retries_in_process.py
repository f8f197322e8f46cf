"""Accounted retries (SPEC 16) in process: the target a retry policy builds.

The CLI tests of `test_accounted_retries` show the record; these drive the target
`create_provider_target` builds for an entry with ``retry:`` directly, against a real
server on 127.0.0.1, with an admission callback that records what the target asks
for (the failure's reason and the wait it intends) and answers as a test scripts it.
They pin the number of requests sent, the waits asked for and the exact message a
user sees when the retries end.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import TargetError
from artemiskit.providers import (
    ProviderRequest,
    create_provider_target,
    parse_trusted_config,
)
from artemiskit.targets import Message, TargetRequest, TargetResponse

from ._chat_server import ChatServer, Reply, chat_reply
from .test_cli_protocols import free_port

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

pytestmark = pytest.mark.anyio

RATE_LIMITED = "provider_rate_limited"


def limited(retry_after: str | None = "0", status: int = 429) -> Reply:
    headers = () if retry_after is None else (("Retry-After", retry_after),)
    return Reply(status=status, body={}, headers=headers)


class Admission:
    """An engine's ``retry_admission``: records each call, answers as scripted."""

    def __init__(self, *answers: bool) -> None:
        self.answers = list(answers)
        self.calls: list[tuple[str, float]] = []

    async def __call__(self, reason: str, delay_s: float) -> bool:
        self.calls.append((reason, delay_s))
        return self.answers.pop(0)


async def respond(
    server: ChatServer | str,
    retry: dict[str, Any],
    admit: Callable[[str, float], Awaitable[bool]] | None,
) -> TargetResponse:
    url = server if isinstance(server, str) else server.url
    entry = {"type": "openai", "base_url": url, "api_key": "k", "retry": retry}
    config = parse_trusted_config(json.dumps({"providers": {"m": entry}}))
    built = await create_provider_target(
        ProviderRequest(entry=config.providers["m"], model="m1")
    )
    request = TargetRequest(
        messages=(Message(role="user", content="Hello."),),
        tools=(),
        retry_admission=admit,
    )
    try:
        return await built.target.respond(request)
    finally:
        await built.target.aclose()  # type: ignore[attr-defined]


async def given_up(
    server: ChatServer | str,
    retry: dict[str, Any],
    admit: Callable[[str, float], Awaitable[bool]] | None,
) -> TargetError:
    with pytest.raises(TargetError) as caught:
        await respond(server, retry, admit)
    return caught.value


def rate_limiting(server: ChatServer, ending: str) -> str:
    return f"the model provider at {server.url} is rate limiting (HTTP 429); {ending}"


async def test_a_listed_failure_admitted_is_retried_until_an_answer(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(limited(), limited(status=503), chat_reply(content="Done."))
    admit = Admission(True, True)
    retry = {"on": ["rate_limited", "overloaded"], "max_attempts": 3}
    response = await respond(chat_server, retry, admit)
    assert response.text == "Done."
    assert admit.calls == [(RATE_LIMITED, 0.0), ("provider_overloaded", 0.0)]
    assert len(chat_server.requests) == 3


async def test_max_attempts_ends_the_retries_with_the_count_in_the_message(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(limited(), limited(), limited(), limited())
    admit = Admission(True, True, False)
    retry = {"on": ["rate_limited"], "max_attempts": 3, "max_delay_ms": 1000}
    error = await given_up(chat_server, retry, admit)
    assert error.message == rate_limiting(
        chat_server,
        "3 attempts made, no further retry: retry.max_attempts=3 reached",
    )
    assert error.reason == RATE_LIMITED
    assert admit.calls == [(RATE_LIMITED, 0.0), (RATE_LIMITED, 0.0)]
    assert len(chat_server.requests) == 3


async def test_one_attempt_allowed_is_one_request_and_one_attempt_said(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(limited(), limited())
    admit = Admission(True)
    error = await given_up(
        chat_server, {"on": ["rate_limited"], "max_attempts": 1}, admit
    )
    assert error.message == rate_limiting(
        chat_server, "1 attempt made, no further retry: retry.max_attempts=1 reached"
    )
    assert admit.calls == []
    assert len(chat_server.requests) == 1


async def test_two_attempts_are_said_in_the_plural(chat_server: ChatServer) -> None:
    chat_server.enqueue(limited(), limited(), limited())
    admit = Admission(True, False)
    retry = {"on": ["rate_limited"], "max_attempts": 2, "max_delay_ms": 0}
    error = await given_up(chat_server, retry, admit)
    assert error.message == rate_limiting(
        chat_server, "2 attempts made, no further retry: retry.max_attempts=2 reached"
    )
    assert len(chat_server.requests) == 2


async def test_a_refused_admission_ends_the_retries(chat_server: ChatServer) -> None:
    chat_server.enqueue(limited("5"), limited())
    admit = Admission(False)
    retry = {"on": ["rate_limited"], "max_attempts": 3, "max_delay_ms": 5000}
    error = await given_up(chat_server, retry, admit)
    assert error.message == rate_limiting(
        chat_server,
        "1 attempt made, no further retry: another attempt would pass the "
        "workflow's deadline or budget",
    )
    assert error.reason == RATE_LIMITED
    assert admit.calls == [(RATE_LIMITED, 5.0)]
    assert len(chat_server.requests) == 1


async def test_without_an_admission_callback_nothing_retries(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(limited(), limited())
    retry = {"on": ["rate_limited"], "max_attempts": 3, "max_delay_ms": 0}
    error = await given_up(chat_server, retry, None)
    assert error.message == rate_limiting(
        chat_server,
        "1 attempt made, no further retry: no engine admits retries here "
        "(the judge's requests)",
    )
    assert len(chat_server.requests) == 1


async def test_a_retry_after_over_max_delay_is_not_asked_for(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(limited("6"), limited())
    admit = Admission(False)
    retry = {"on": ["rate_limited"], "max_attempts": 3, "max_delay_ms": 5000}
    error = await given_up(chat_server, retry, admit)
    assert error.message == rate_limiting(
        chat_server,
        "1 attempt made, no further retry: its Retry-After (6 s) exceeds "
        "retry.max_delay_ms=5000",
    )
    assert admit.calls == []
    assert len(chat_server.requests) == 1


async def test_without_retry_after_the_first_wait_is_half_a_second(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(limited(None), limited())
    admit = Admission(False)
    retry = {"on": ["rate_limited"], "max_attempts": 3, "max_delay_ms": 5000}
    await given_up(chat_server, retry, admit)
    assert admit.calls == [(RATE_LIMITED, 0.5)]


async def test_the_second_wait_without_retry_after_doubles(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(limited("0"), limited(None), limited())
    admit = Admission(True, False)
    retry = {"on": ["rate_limited"], "max_attempts": 3, "max_delay_ms": 5000}
    await given_up(chat_server, retry, admit)
    assert admit.calls == [(RATE_LIMITED, 0.0), (RATE_LIMITED, 1.0)]
    assert len(chat_server.requests) == 2


async def test_max_delay_caps_the_wait_without_retry_after(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(limited(None), limited())
    admit = Admission(False)
    retry = {"on": ["rate_limited"], "max_attempts": 3, "max_delay_ms": 200}
    await given_up(chat_server, retry, admit)
    assert admit.calls == [(RATE_LIMITED, 0.2)]


async def test_an_unlisted_failure_is_raised_as_the_client_said(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(limited(status=503), limited())
    admit = Admission(True)
    retry = {"on": ["rate_limited"], "max_attempts": 3, "max_delay_ms": 0}
    error = await given_up(chat_server, retry, admit)
    assert error.message == (
        f"the model provider at {chat_server.url} is overloaded (HTTP 503); "
        "no retry was made"
    )
    assert error.reason == "provider_overloaded"
    assert admit.calls == []
    assert len(chat_server.requests) == 1


async def test_a_refused_connection_is_retried_when_listed() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    admit = Admission(True, False)
    retry = {"on": ["connect_refused"], "max_attempts": 2, "max_delay_ms": 0}
    error = await given_up(url, retry, admit)
    assert error.message == (
        f"the model provider at {url} refused the connection (nothing was sent); "
        "2 attempts made, no further retry: retry.max_attempts=2 reached"
    )
    assert error.reason == "provider_connect_refused"
    assert admit.calls == [("provider_connect_refused", 0.0)]


@pytest.mark.parametrize(
    ("retry_after", "wait_s"),
    [
        ("Wed, 21 Oct 2015 07:28:00 GMT", 0.0),  # a past date: retry at once
        ("Wed, 21 Oct 2015 07:28:00 -0000", 0.5),  # a date without zone: ignored
        ("soon", 0.5),  # unreadable: ignored
    ],
    ids=["past-date", "date-without-zone", "unreadable"],
)
async def test_a_retry_after_date_is_honoured_and_an_unreadable_one_ignored(
    chat_server: ChatServer, retry_after: str, wait_s: float
) -> None:
    chat_server.enqueue(limited(retry_after), limited())
    admit = Admission(False)
    retry = {"on": ["rate_limited"], "max_attempts": 3, "max_delay_ms": 5000}
    await given_up(chat_server, retry, admit)
    assert admit.calls == [(RATE_LIMITED, wait_s)]


@pytest.mark.parametrize(
    ("retry_after", "said"),
    [
        ("Fri, 01 Jan 2100 00:00:00 GMT", "its Retry-After ("),
        ("12345678901", "its Retry-After (1.23457e+08 s) exceeds"),
    ],
    ids=["future-date", "nine-digits-at-most"],
)
async def test_a_retry_after_far_ahead_is_not_waited_for(
    chat_server: ChatServer, retry_after: str, said: str
) -> None:
    chat_server.enqueue(limited(retry_after), limited())
    admit = Admission(False)
    retry = {"on": ["rate_limited"], "max_attempts": 3, "max_delay_ms": 5000}
    error = await given_up(chat_server, retry, admit)
    assert said in error.message
    assert error.message.endswith("exceeds retry.max_delay_ms=5000")
    assert admit.calls == []
