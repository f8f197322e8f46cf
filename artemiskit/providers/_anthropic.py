"""The built-in ``anthropic`` provider: the Messages API over httpx (SPEC 16).

`AnthropicClient` is a `ModelClient` for Anthropic's Messages API (and for gateways
that speak it). The transport and its guarantees (one request per call, no hidden
retries, cancellation, one deadline, the credential never shown) are
`HttpModelClient`'s; the wire format is `_messages_protocol`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from artemiskit._errors import ConfigError
from artemiskit.providers._http import HttpModelClient, credential_value
from artemiskit.providers._messages_protocol import (
    encode_messages_request,
    parse_messages_response,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    import httpx

    from artemiskit.targets._protocol import ModelRequest, TargetResponse

__all__ = [
    "DEFAULT_ANTHROPIC_BASE_URL",
    "DEFAULT_ANTHROPIC_VERSION",
    "DEFAULT_MAX_TOKENS",
    "AnthropicClient",
]

DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1"
DEFAULT_ANTHROPIC_VERSION = "2023-06-01"
#: ``max_tokens`` when the workflow sets no output allowance (the API needs one).
DEFAULT_MAX_TOKENS = 4096


class AnthropicClient(HttpModelClient):
    """A `ModelClient` for the Anthropic Messages API.

    Example::

        async with AnthropicClient(api_key=os.environ["ANTHROPIC_API_KEY"]) as client:
            target = create_model_client_target(client, model="claude-sonnet-4-5")
    """

    protocol = "Messages"
    not_found_hint = (
        "check the model name and that base_url ends with the API root, e.g. /v1"
    )

    def __init__(
        self,
        *,
        base_url: str = DEFAULT_ANTHROPIC_BASE_URL,
        api_key: str | None = None,
        anthropic_version: str = DEFAULT_ANTHROPIC_VERSION,
        default_max_tokens: int = DEFAULT_MAX_TOKENS,
        request_timeout_ms: int = 60_000,
        extra_headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        """Configure the client; no connection is made yet.

        Args:
            base_url: The API root; requests go to ``{base_url}/messages``.
            api_key: Sent as the ``x-api-key`` header; ``None`` when no key is
                needed (a gateway that authenticates otherwise).
            anthropic_version: The ``anthropic-version`` header.
            default_max_tokens: ``max_tokens`` for a request without an output
                allowance (the workflow sets neither ``max_output_tokens`` nor
                ``max_tokens``).
            request_timeout_ms: The deadline of one request, 1 to 3,600,000 ms.
            extra_headers: Further request headers (e.g. ``anthropic-beta``),
                treated as secrets and never shown.
            http_client: An HTTP client (connection pool) to share with other
                clients, from `new_http_client`; this client never closes it.

        Raises:
            ConfigError: A setting is invalid. The message never contains the key
                or a header value.
        """
        if not isinstance(anthropic_version, str) or not anthropic_version.strip():
            raise ConfigError("anthropic_version must be a non-empty string")
        if (
            isinstance(default_max_tokens, bool)
            or not isinstance(default_max_tokens, int)
            or default_max_tokens < 1
        ):
            raise ConfigError("default_max_tokens must be a positive integer")
        key = credential_value(api_key)
        credentials = {"anthropic-version": anthropic_version.strip()}
        if key is not None:
            credentials["x-api-key"] = key
        super().__init__(
            base_url=base_url,
            path="/messages",
            params=None,
            credential_headers=credentials,
            has_key=key is not None,
            request_timeout_ms=request_timeout_ms,
            extra_headers=extra_headers,
            http_client=http_client,
        )
        self._default_max_tokens = default_max_tokens

    def _encode(self, request: ModelRequest) -> dict[str, Any]:
        return encode_messages_request(
            request, default_max_tokens=self._default_max_tokens
        )

    def _parse(self, body: bytes, request: ModelRequest) -> TargetResponse:
        return parse_messages_response(body, request)
