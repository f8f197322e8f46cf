"""The built-in ``openai`` and ``azure-openai`` providers (SPEC 5 and 16).

`OpenAIClient` is a `ModelClient` for OpenAI and for any OpenAI-compatible server
(vLLM, llama.cpp server, Ollama, gateways), chosen by base URL. `AzureOpenAIClient`
speaks the same protocol to an Azure OpenAI deployment: only the URL (a deployment
path and an ``api-version`` query parameter) and the credential header (``api-key``)
differ. The transport and its guarantees (one request per call, no hidden retries,
cancellation, one deadline, the credential never shown) are `HttpModelClient`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from artemiskit._errors import ConfigError
from artemiskit.providers._chat_protocol import (
    encode_chat_request,
    parse_chat_response,
)
from artemiskit.providers._http import (
    HttpModelClient,
    credential_value,
    new_http_client,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    import httpx

    from artemiskit.targets._protocol import ModelRequest, TargetResponse

__all__ = [
    "DEFAULT_AZURE_API_VERSION",
    "AzureOpenAIClient",
    "OpenAIClient",
    "new_http_client",
]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: The ``api-version`` upstream ArtemisKit defaults to.
DEFAULT_AZURE_API_VERSION = "2024-02-15-preview"


class OpenAIClient(HttpModelClient):
    """A `ModelClient` for OpenAI-compatible Chat Completions endpoints.

    The underlying HTTP client is created on first use. Close the client with
    `aclose` (or use it as an async context manager) to release its connections.

    Example::

        async with OpenAIClient(api_key=os.environ["OPENAI_API_KEY"]) as client:
            target = create_model_client_target(client, model="gpt-4.1-mini")
    """

    protocol = "Chat Completions"
    not_found_hint = (
        "check the model name and that base_url ends with the API root, e.g. /v1"
    )

    def __init__(
        self,
        *,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        request_timeout_ms: int = 60_000,
        extra_headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        """Configure the client; no connection is made yet.

        Args:
            base_url: The API root, e.g. ``http://127.0.0.1:8000/v1``; requests go
                to ``{base_url}/chat/completions``.
            api_key: Sent as ``Authorization: Bearer <key>``; ``None`` for servers
                that need no credential.
            request_timeout_ms: The deadline of one request, 1 to 3,600,000 ms.
            extra_headers: Further request headers (e.g. an organization id).
                Their values are treated as secrets and never shown.
            http_client: An HTTP client (connection pool) to share with other
                clients, from `new_http_client`; this client never closes it.

        Raises:
            ConfigError: A setting is invalid. The message never contains the key
                or a header value.
        """
        key = credential_value(api_key)
        super().__init__(
            base_url=base_url,
            path="/chat/completions",
            params=None,
            credential_headers={}
            if key is None
            else {"Authorization": f"Bearer {key}"},
            has_key=key is not None,
            request_timeout_ms=request_timeout_ms,
            extra_headers=extra_headers,
            http_client=http_client,
        )

    def _encode(self, request: ModelRequest) -> dict[str, Any]:
        return encode_chat_request(request)

    def _parse(self, body: bytes, request: ModelRequest) -> TargetResponse:
        del request
        return parse_chat_response(body)


class AzureOpenAIClient(OpenAIClient):
    """A `ModelClient` for one Azure OpenAI deployment (Chat Completions).

    Requests go to ``{endpoint}/openai/deployments/{deployment}/chat/completions``
    with ``?api-version=...`` and the key in the ``api-key`` header. The workflow's
    model name is still sent in the body (Azure ignores it: the deployment decides).

    Example::

        async with AzureOpenAIClient(
            endpoint="https://my-resource.openai.azure.com",
            deployment="gpt-4o-mini",
            api_key=os.environ["AZURE_OPENAI_API_KEY"],
        ) as client:
            target = create_model_client_target(client, model="gpt-4o-mini")
    """

    not_found_hint = (
        "check the deployment, the api_version and that base_url is the "
        "resource endpoint (https://RESOURCE.openai.azure.com)"
    )

    def __init__(
        self,
        *,
        endpoint: str,
        deployment: str,
        api_key: str | None = None,
        api_version: str = DEFAULT_AZURE_API_VERSION,
        request_timeout_ms: int = 60_000,
        extra_headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        """Configure the client; no connection is made yet.

        Args:
            endpoint: The resource endpoint, e.g.
                ``https://my-resource.openai.azure.com``.
            deployment: The deployment name.
            api_key: Sent as the ``api-key`` header; ``None`` when another header
                (e.g. an Entra ID ``Authorization`` in ``extra_headers``) carries
                the credential.
            api_version: The ``api-version`` query parameter.
            request_timeout_ms: The deadline of one request, 1 to 3,600,000 ms.
            extra_headers: Further request headers, treated as secrets.
            http_client: An HTTP client (connection pool) to share with other
                clients, from `new_http_client`; this client never closes it.

        Raises:
            ConfigError: A setting is invalid. The message never contains the key
                or a header value.
        """
        if not isinstance(deployment, str) or not deployment.strip():
            raise ConfigError("the Azure OpenAI deployment must be a non-empty name")
        if not isinstance(api_version, str) or not api_version.strip():
            raise ConfigError("the Azure OpenAI api_version must be a non-empty string")
        key = credential_value(api_key)
        HttpModelClient.__init__(
            self,
            base_url=endpoint,
            path=f"/openai/deployments/{quote(deployment, safe='')}/chat/completions",
            params={"api-version": api_version},
            credential_headers={} if key is None else {"api-key": key},
            has_key=key is not None,
            request_timeout_ms=request_timeout_ms,
            extra_headers=extra_headers,
            http_client=http_client,
        )
