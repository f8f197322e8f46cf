"""The Azure OpenAI client: Chat Completions at a deployment URL, on 127.0.0.1."""

from __future__ import annotations

import pytest

from artemiskit._errors import ConfigError, UnsupportedError
from artemiskit.providers import (
    AzureOpenAIClient,
    ProviderConfig,
    ProviderRequest,
    create_provider_target,
)
from artemiskit.targets import Message, ModelRequest

from ._chat_server import ChatServer, Reply, chat_reply

pytestmark = pytest.mark.anyio

SECRET = "azure-SECRET-0123456789abcdef"


def request() -> ModelRequest:
    return ModelRequest(
        model="gpt-test", messages=(Message(role="user", content="Hi"),), tools=()
    )


async def test_deployment_url_api_version_and_api_key_header(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(chat_reply(content="Hello."))
    async with AzureOpenAIClient(
        endpoint=chat_server.root + "/",
        deployment="my deployment",
        api_key=SECRET,
        api_version="2024-10-21",
    ) as client:
        response = await client.complete(request())
    assert response.text == "Hello."
    (sent,) = chat_server.requests
    assert sent.path == (
        "/openai/deployments/my%20deployment/chat/completions?api-version=2024-10-21"
    )
    assert sent.headers["api-key"] == SECRET
    assert "authorization" not in sent.headers
    assert sent.json["messages"] == [{"role": "user", "content": "Hi"}]


async def test_errors_never_show_the_key_or_the_query_string(
    chat_server: ChatServer,
) -> None:
    chat_server.enqueue(
        Reply(status=404, body={"error": {"code": "DeploymentNotFound"}})
    )
    async with AzureOpenAIClient(
        endpoint=chat_server.root,
        deployment="d",
        api_key=SECRET,
        api_version="QUERY-SENTINEL",
    ) as client:
        with pytest.raises(UnsupportedError) as caught:
            await client.complete(request())
    message = str(caught.value)
    assert "(HTTP 404, DeploymentNotFound)" in message
    assert chat_server.host in message
    assert "check the deployment" in message
    assert "QUERY-SENTINEL" not in message
    assert SECRET not in message
    assert SECRET not in repr(client)


@pytest.mark.parametrize(
    "settings",
    [{"deployment": " "}, {"api_version": ""}, {"endpoint": "http://h/?a=1"}],
)
def test_invalid_settings_are_config_errors(settings: dict[str, str]) -> None:
    options = {"endpoint": "https://r.openai.azure.com", "deployment": "d", **settings}
    with pytest.raises(ConfigError):
        AzureOpenAIClient(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("settings", "url"),
    [
        ({"base_url": "https://r.openai.azure.com"}, None),
        ({"deployment": "d"}, None),
        (
            {"resource_name": "my-res", "deployment": "d"},
            "https://my-res.openai.azure.com",
        ),
    ],
)
async def test_an_entry_needs_an_endpoint_and_a_deployment(
    settings: dict[str, str], url: str | None
) -> None:
    entry = ProviderConfig(name="az", type="azure-openai", api_key=SECRET, **settings)  # type: ignore[arg-type]
    request = ProviderRequest(entry=entry, model="gpt-test")
    if url is None:
        with pytest.raises(ConfigError, match="needs base_url") as caught:
            await create_provider_target(request)
        assert caught.value.reason == "incomplete_provider"
        return
    built = await create_provider_target(request)
    await built.target.aclose()  # type: ignore[attr-defined]
    assert built.label == "provider 'az' (my-res.openai.azure.com)"
