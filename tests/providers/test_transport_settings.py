"""The built-in client's transport is exactly what the configuration says.

One admitted request is one connection attempt (no hidden transport retries), the
process environment adds nothing (no proxy variables, no ``.netrc`` credentials, no
certificate locations),
and usage the server reports as negative is unavailable, never free.
"""

from __future__ import annotations

import socket
import threading
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import TargetError
from artemiskit.providers import OpenAIClient
from artemiskit.targets import Message, ModelRequest

from ._chat_server import ChatServer, chat_reply

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

pytestmark = pytest.mark.anyio

PROXY_VARIABLES = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
)


def request() -> ModelRequest:
    return ModelRequest(
        model="test-model", messages=(Message(role="user", content="Hi."),), tools=()
    )


class HangUpServer:
    """Accepts TCP connections on 127.0.0.1 and closes each at once, counting them.

    A TLS client sees its handshake fail on every connection, the failure an HTTP
    transport with retries enabled would silently retry.
    """

    def __init__(self) -> None:
        self._socket = socket.create_server(("127.0.0.1", 0))
        self._socket.settimeout(0.05)
        self.port = self._socket.getsockname()[1]
        self.accepted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                connection, _ = self._socket.accept()
            except TimeoutError:
                continue
            self.accepted += 1
            connection.close()

    def __enter__(self) -> HangUpServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._socket.close()


@pytest.fixture
def hang_up_server() -> Iterator[HangUpServer]:
    with HangUpServer() as server:
        yield server


async def test_a_failed_connection_is_not_retried(
    hang_up_server: HangUpServer,
) -> None:
    base_url = f"https://127.0.0.1:{hang_up_server.port}/v1"
    async with OpenAIClient(base_url=base_url, request_timeout_ms=20_000) as client:
        with pytest.raises(TargetError) as caught:
            await client.complete(request())
    # the peer hangs up during the TLS handshake (how the loop reports it varies)
    assert caught.value.reason in ("provider_tls_failure", "provider_unreachable")
    assert base_url in str(caught.value)
    assert str(caught.value).endswith("; no retry was made")
    # the server closes each connection only after accepting it, so every
    # attempt the client made was counted before the failure reached us
    assert hang_up_server.accepted == 1


@pytest.fixture
def proxy_server() -> Iterator[ChatServer]:
    with ChatServer() as server:
        yield server


async def test_proxy_variables_are_not_consulted(
    chat_server: ChatServer,
    proxy_server: ChatServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    proxy_url = proxy_server.url.split("/v1")[0]
    for name in PROXY_VARIABLES:
        monkeypatch.setenv(name, proxy_url)
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    chat_server.enqueue(chat_reply(content="direct"))
    proxy_server.enqueue(chat_reply(content="proxied"))
    async with OpenAIClient(base_url=chat_server.url) as client:
        response = await client.complete(request())
    assert response.text == "direct"
    assert len(chat_server.requests) == 1
    assert proxy_server.requests == []


async def test_netrc_credentials_are_not_sent(
    chat_server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login someone password NETRC-SECRET\n")
    netrc.chmod(0o600)
    monkeypatch.setenv("NETRC", str(netrc))
    chat_server.enqueue(chat_reply(content="hi"))
    async with OpenAIClient(base_url=chat_server.url) as client:
        await client.complete(request())
    (sent,) = chat_server.requests
    assert "authorization" not in sent.headers


async def test_certificate_variables_are_not_consulted(
    chat_server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a certificate location from the environment would change which servers the
    # client trusts; a missing one used to crash the client before any request
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
    chat_server.enqueue(chat_reply(content="hi"))
    async with OpenAIClient(base_url=chat_server.url) as client:
        response = await client.complete(request())
    assert response.text == "hi"


@pytest.mark.parametrize(
    "usage",
    [
        {"prompt_tokens": -5, "completion_tokens": 3},
        {"prompt_tokens": 5, "completion_tokens": -3},
    ],
)
async def test_negative_reported_usage_is_unavailable(
    chat_server: ChatServer, usage: dict[str, Any]
) -> None:
    chat_server.enqueue(chat_reply(content="hi", usage=usage))
    async with OpenAIClient(base_url=chat_server.url) as client:
        response = await client.complete(request())
    assert response.text == "hi"
    assert response.usage is None
