"""The built-in clients' settings and failures, against a real server on 127.0.0.1.

What a user passes to `AnthropicClient` and `AzureOpenAIClient` (defaults, invalid
settings, shared connection pools, credentials in headers) and the exact message of
each transport failure a user sees.
"""

from __future__ import annotations

import json
import socket
import ssl
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from artemiskit._errors import ArtemisError, ConfigError, InvalidResponseError
from artemiskit.providers import AnthropicClient, AzureOpenAIClient, OpenAIClient
from artemiskit.providers._openai import new_http_client
from artemiskit.targets import Message, ModelRequest

from ._chat_server import ChatServer, CloseConnection, Reply, Trickle, chat_reply
from ._wire import messages_reply

if TYPE_CHECKING:
    from collections.abc import Iterator

    from artemiskit.providers._http import HttpModelClient

pytestmark = pytest.mark.anyio

KEY = "sk-SECRET-0123456789abcdef"
TEXT = [{"type": "text", "text": "Done."}]
#: A self-signed certificate (and its key) for 127.0.0.1 that nothing trusts.
SELF_SIGNED = Path(__file__).parent / "data" / "self_signed_127.0.0.1.pem"


def request() -> ModelRequest:
    return ModelRequest(
        model="m1", messages=(Message(role="user", content="Hi."),), tools=()
    )


def azure(server: ChatServer, **settings: Any) -> AzureOpenAIClient:
    options: dict[str, Any] = {"endpoint": server.root, "deployment": "dep-1"}
    return AzureOpenAIClient(**(options | settings))


async def failure(client: HttpModelClient) -> ArtemisError:
    async with client:
        with pytest.raises(ArtemisError) as caught:
            await client.complete(request())
    return caught.value


def test_the_default_request_timeout_is_sixty_seconds(chat_server: ChatServer) -> None:
    assert "request_timeout_ms=60000" in repr(AnthropicClient(api_key=KEY))
    assert "request_timeout_ms=60000" in repr(OpenAIClient(api_key=KEY))
    assert "request_timeout_ms=60000" in repr(azure(chat_server, api_key=KEY))


def test_the_repr_says_whether_a_key_is_set(chat_server: ChatServer) -> None:
    assert "api_key=<set>" in repr(azure(chat_server, api_key=KEY))
    assert "api_key=None" in repr(azure(chat_server))
    assert "api_key=<set>" in repr(OpenAIClient(api_key=KEY))
    assert "api_key=None" in repr(OpenAIClient())


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"anthropic_version": " "},
            "anthropic_version must be a non-empty string",
        ),
        ({"default_max_tokens": 0}, "default_max_tokens must be a positive integer"),
        (
            {"default_max_tokens": 2.0},
            "default_max_tokens must be a positive integer",
        ),
    ],
    ids=["blank-version", "zero-max-tokens", "float-max-tokens"],
)
def test_invalid_anthropic_settings_say_which(
    settings: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        AnthropicClient(api_key=KEY, **settings)
    assert caught.value.message == message


@pytest.mark.parametrize("timeout_ms", [1, 3_600_000])
def test_request_timeouts_from_one_ms_to_an_hour_are_accepted(timeout_ms: int) -> None:
    client = OpenAIClient(request_timeout_ms=timeout_ms)
    assert f"request_timeout_ms={timeout_ms}," in repr(client)


@pytest.mark.parametrize("timeout_ms", [0, 3_600_001, True, 1.5, "60"])
def test_other_request_timeouts_are_refused(timeout_ms: Any) -> None:
    with pytest.raises(ConfigError) as caught:
        OpenAIClient(request_timeout_ms=timeout_ms)
    assert caught.value.message == (
        "request_timeout_ms must be an integer from 1 to 3600000"
    )


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"deployment": " "}, "the Azure OpenAI deployment must be a non-empty name"),
        (
            {"api_version": ""},
            "the Azure OpenAI api_version must be a non-empty string",
        ),
    ],
    ids=["blank-deployment", "empty-api-version"],
)
def test_invalid_azure_settings_say_which(
    chat_server: ChatServer, settings: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        azure(chat_server, api_key=KEY, **settings)
    assert caught.value.message == message


async def test_a_default_max_tokens_of_one_is_sent(chat_server: ChatServer) -> None:
    chat_server.enqueue(messages_reply(TEXT))
    async with AnthropicClient(
        base_url=chat_server.url, api_key=KEY, default_max_tokens=1
    ) as client:
        await client.complete(request())
    assert chat_server.requests[0].json["max_tokens"] == 1


async def test_azure_without_api_key_sends_only_the_given_headers(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(chat_reply(content="Done."))
    bearer = {"Authorization": f"Bearer {KEY}"}
    async with azure(chat_server, extra_headers=bearer) as client:
        assert (await client.complete(request())).text == "Done."
    headers = chat_server.requests[0].headers
    assert "api-key" not in headers
    assert headers["authorization"] == f"Bearer {KEY}"


async def test_an_azure_deployment_name_is_one_path_segment(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(chat_reply(content="Done."))
    async with azure(chat_server, api_key=KEY, deployment="team/dep 1") as client:
        await client.complete(request())
    path = chat_server.requests[0].path
    assert path.startswith("/openai/deployments/team%2Fdep%201/chat/completions?")


async def test_every_client_type_sends_through_a_shared_pool(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(
        messages_reply(TEXT), chat_reply(content="Done."), chat_reply(content="Done.")
    )
    sent: list[str] = []

    async def record(outgoing: httpx.Request) -> None:
        sent.append(outgoing.url.path)

    async with new_http_client(20_000) as shared:
        shared.event_hooks = {"request": [record]}
        clients: list[HttpModelClient] = [
            AnthropicClient(base_url=chat_server.url, api_key=KEY, http_client=shared),
            azure(chat_server, api_key=KEY, http_client=shared),
            OpenAIClient(base_url=chat_server.url, api_key=KEY, http_client=shared),
        ]
        for client in clients:
            async with client:
                await client.complete(request())
        assert not shared.is_closed
    assert sent == [
        "/v1/messages",
        "/openai/deployments/dep-1/chat/completions",
        "/v1/chat/completions",
    ]


async def test_a_refused_credential_says_what_to_check(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(Reply(status=401, body={}))
    error = await failure(AnthropicClient(base_url=chat_server.url, api_key=KEY))
    assert error.message == (
        f"the model provider at {chat_server.url} refused the credential "
        "(HTTP 401); check the provider's api_key or api_key_env"
    )


async def test_a_dropped_connection_is_unreachable_and_names_the_failure(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(CloseConnection())
    error = await failure(AnthropicClient(base_url=chat_server.url, api_key=KEY))
    assert error.message == (
        f"could not complete the request to the model provider at {chat_server.url} "
        "(RemoteProtocolError); no retry was made"
    )
    assert error.reason == "provider_unreachable"


async def test_tls_to_a_plain_http_server_is_a_tls_failure(
    chat_server: ChatServer,
) -> None:
    url = f"https://{chat_server.host}/v1"
    error = await failure(AnthropicClient(base_url=url, api_key=KEY))
    assert error.message == (
        f"the TLS handshake with the model provider at {url} failed (SSLError); "
        "no retry was made"
    )
    assert error.reason == "provider_tls_failure"


async def test_a_declared_oversized_body_is_refused_before_it_is_read(
    chat_server: ChatServer,
) -> None:
    # the body would take hours to arrive: only its declared length can refuse it
    chat_server.enqueue(Trickle({"pad": "x" * (16 * 1024 * 1024)}, pause_s=1.0))
    client = AnthropicClient(
        base_url=chat_server.url, api_key=KEY, request_timeout_ms=5000
    )
    error = await failure(client)
    assert error.message == "the provider's response body exceeds 16777216 bytes"


@pytest.mark.parametrize("size", [64 * 1024, 64 * 1024 + 1])
async def test_an_error_body_up_to_64_kib_keeps_its_code(
    chat_server: ChatServer, size: int
) -> None:
    document = {"error": {"code": "context_length_exceeded", "pad": ""}}
    padding = size - len(json.dumps(document).encode())
    document["error"]["pad"] = "x" * padding
    chat_server.enqueue(Reply(status=400, body=document))
    error = await failure(AnthropicClient(base_url=chat_server.url, api_key=KEY))
    detail = "HTTP 400, context_length_exceeded" if size <= 64 * 1024 else "HTTP 400"
    assert error.message == (
        f"the model provider at {chat_server.url} rejected the request ({detail})"
    )


async def test_a_lone_surrogate_is_sent_as_an_ascii_escape(
    chat_server: ChatServer,
) -> None:
    # a model's lone surrogate, echoed back in the conversation, has no UTF-8 form
    chat_server.enqueue(chat_reply(content="Done."))
    lone = ModelRequest(
        model="m1", messages=(Message(role="user", content="a\ud800é"),), tools=()
    )
    async with OpenAIClient(base_url=chat_server.url, api_key=KEY) as client:
        await client.complete(lone)
    sent = chat_server.requests[0]
    assert b'"content": "a\\ud800\\u00e9"' in sent.body
    assert sent.json["messages"][0]["content"] == "a\ud800é"


# httpx's DecodingError escapes its body iterator with the inner async generators
# unfinished; trio reports them when they are collected (a known leak, reported)
@pytest.mark.filterwarnings(
    "ignore:Exception ignored in. <async_generator object"
    ":pytest.PytestUnraisableExceptionWarning"
)
async def test_a_body_that_cannot_be_decoded_is_outside_the_protocol(
    chat_server: ChatServer,
) -> None:
    broken_gzip = (("Content-Encoding", "gzip"),)
    chat_server.enqueue(Reply(body=b"not gzip at all", headers=broken_gzip))
    error = await failure(AnthropicClient(base_url=chat_server.url, api_key=KEY))
    assert type(error) is InvalidResponseError
    assert error.message == "the provider's response body could not be decoded"


@pytest.fixture
def untrusted_tls_port() -> Iterator[int]:
    """A TLS server on 127.0.0.1 whose certificate no client trusts."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(SELF_SIGNED)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(30)

    def handshake_once() -> None:
        try:
            connection, _ = listener.accept()
            with context.wrap_socket(connection, server_side=True):
                pass
        except OSError:  # the client refuses the certificate and hangs up
            pass

    thread = threading.Thread(target=handshake_once, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    listener.close()
    thread.join()


async def test_an_untrusted_certificate_is_said_so(untrusted_tls_port: int) -> None:
    url = f"https://127.0.0.1:{untrusted_tls_port}/v1"
    error = await failure(AnthropicClient(base_url=url, api_key=KEY))
    assert error.message == (
        f"the TLS handshake with the model provider at {url} failed (its "
        "certificate could not be verified); no retry was made"
    )
    assert error.reason == "provider_tls_failure"
