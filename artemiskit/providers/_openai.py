"""The built-in ``openai`` provider: Chat Completions over httpx (SPEC 5).

`OpenAIClient` is a `ModelClient` for OpenAI and for any OpenAI-compatible server
(vLLM, llama.cpp server, Ollama, gateways), chosen by base URL.

Guarantees:

- **One `complete` call is exactly one HTTP request.** The transport is built with
  ``retries=0`` and redirects are not followed, so the budget counters of the engine
  count real requests.
- **Cancellation aborts the request.** An anyio cancel scope (or ``session.cancel()``)
  interrupts the request wherever it is; the connection is closed, never reused.
- **One deadline per request.** ``request_timeout_ms`` bounds the whole request,
  from connecting to the last byte of the body; when it passes, `TargetError`.
- **The credential stays in the Authorization header.** It is never part of an
  exception message, a repr or a log line. Environment proxies, ``.netrc`` and
  certificate locations (``SSL_CERT_FILE``, ``SSL_CERT_DIR``) are not consulted
  (``trust_env=False`` on the client and its transport), so the effective transport
  is exactly the configured one.

This is the only module of the SDK that imports httpx.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Self

import anyio
import httpx

from artemiskit._errors import (
    ConfigError,
    InvalidResponseError,
    TargetError,
    UnsupportedError,
)
from artemiskit._version import __version__
from artemiskit.providers._chat_protocol import (
    encode_chat_request,
    error_code_of,
    parse_chat_response,
)
from artemiskit.providers._digest import normalize_base_url

if TYPE_CHECKING:
    from collections.abc import Mapping
    from types import TracebackType

    from artemiskit.targets._protocol import ModelRequest, TargetResponse

__all__ = ["OpenAIClient", "new_http_client"]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
_MAX_TIMEOUT_MS = 3_600_000
_MAX_RESPONSE_BYTES = 16 * 1024 * 1024
_MAX_ERROR_BODY_BYTES = 64 * 1024
_RESERVED_HEADERS = frozenset(
    {"content-length", "content-type", "transfer-encoding", "host", "connection"}
)


def new_http_client(request_timeout_ms: int) -> httpx.AsyncClient:
    """An HTTP client as `OpenAIClient` makes its own: no retries, no proxies."""
    return httpx.AsyncClient(
        transport=httpx.AsyncHTTPTransport(retries=0, trust_env=False),
        timeout=httpx.Timeout(request_timeout_ms / 1000),
        follow_redirects=False,
        trust_env=False,
    )


class OpenAIClient:
    """A `ModelClient` for OpenAI-compatible Chat Completions endpoints.

    The underlying HTTP client is created on first use. Close the client with
    `aclose` (or use it as an async context manager) to release its connections.

    Example::

        async with OpenAIClient(api_key=os.environ["OPENAI_API_KEY"]) as client:
            target = create_model_client_target(client, model="gpt-4.1-mini")
    """

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
        self._endpoint = normalize_base_url(base_url)
        self._url = f"{self._endpoint}/chat/completions"
        if (
            isinstance(request_timeout_ms, bool)
            or not isinstance(request_timeout_ms, int)
            or not 1 <= request_timeout_ms <= _MAX_TIMEOUT_MS
        ):
            raise ConfigError(
                f"request_timeout_ms must be an integer from 1 to {_MAX_TIMEOUT_MS}"
            )
        self._timeout_s = request_timeout_ms / 1000
        self._request_timeout_ms = request_timeout_ms
        self._headers = _build_headers(api_key, extra_headers or {})
        self._has_key = api_key is not None
        self._header_names = tuple(sorted(k.lower() for k in (extra_headers or {})))
        self._client: httpx.AsyncClient | None = None
        self._shared = http_client
        self._closed = False

    @property
    def endpoint(self) -> str:
        """The normalized base URL (never contains credentials)."""
        return self._endpoint

    def __repr__(self) -> str:
        key = "<set>" if self._has_key else "None"
        return (
            f"OpenAIClient(base_url={self._endpoint!r}, api_key={key}, "
            f"request_timeout_ms={self._request_timeout_ms}, "
            f"extra_headers={list(self._header_names)!r})"
        )

    async def __aenter__(self) -> Self:
        """Return the client itself."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the client."""
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connections; later `complete` calls fail. Idempotent."""
        self._closed = True
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    async def complete(self, request: ModelRequest) -> TargetResponse:
        """Send one Chat Completions request and parse the first choice.

        Args:
            request: Model, conversation, tools and sampling settings.

        Returns:
            The answer's text, tool calls (arguments as the server sent them) and
            usage (``None`` when the server reported none).

        Raises:
            InvalidResponseError: The answer is not a Chat Completions response
                (exit 2).
            ConfigError: The server refused the credential, HTTP 401/403 (exit 1).
            UnsupportedError: The model or endpoint does not exist, HTTP 404
                (exit 3).
            TargetError: A server error, another HTTP error status, a network
                failure or the request deadline (exit 7).
        """
        if self._closed:
            raise TargetError("the OpenAI-compatible client is closed")
        try:
            content = _json_body(encode_chat_request(request))
        except (TypeError, ValueError) as exc:
            raise TargetError(
                "the model request cannot be encoded as JSON (a non-finite number "
                "or a non-JSON value in the settings or a tool schema)",
                reason="invalid_model_request",
            ) from exc
        client = self._http_client()
        with anyio.move_on_after(self._timeout_s) as deadline:
            status, body = await self._post(client, content)
        if deadline.cancelled_caught:
            raise self._timed_out()
        if 200 <= status < 300:
            return parse_chat_response(body)
        raise self._status_error(status, body, request.model)

    def _http_client(self) -> httpx.AsyncClient:
        if self._shared is not None:
            return self._shared
        if self._client is None:
            self._client = new_http_client(self._request_timeout_ms)
        return self._client

    async def _post(
        self, client: httpx.AsyncClient, content: bytes
    ) -> tuple[int, bytes]:
        try:
            async with client.stream(
                "POST", self._url, content=content, headers=self._headers
            ) as response:
                status = response.status_code
                success = 200 <= status < 300
                limit = _MAX_RESPONSE_BYTES if success else _MAX_ERROR_BODY_BYTES
                body = await _read_bounded(response, limit)
        except httpx.TimeoutException as exc:
            raise self._timed_out() from exc
        except httpx.DecodingError as exc:
            raise InvalidResponseError(
                "the provider's response body could not be decoded"
            ) from exc
        except httpx.HTTPError as exc:
            raise TargetError(
                f"could not complete the request to the model provider at "
                f"{self._endpoint} ({type(exc).__name__}); no retry was made",
                reason="provider_unreachable",
            ) from exc
        if body is not None:
            return status, body
        if success:
            raise InvalidResponseError(
                f"the provider's response body exceeds {limit} bytes"
            )
        return status, b""  # an oversized error body only loses its error code

    def _timed_out(self) -> TargetError:
        return TargetError(
            f"the model provider at {self._endpoint} did not answer within "
            f"request_timeout_ms={self._request_timeout_ms}; no retry was made",
            reason="provider_timeout",
        )

    def _status_error(
        self, status: int, body: bytes, model: str
    ) -> ConfigError | UnsupportedError | TargetError:
        code = error_code_of(body)
        detail = f"HTTP {status}" + (f", {code}" if code else "")
        if status in (401, 403):
            return ConfigError(
                f"the model provider at {self._endpoint} refused the credential "
                f"({detail}); check the provider's api_key or api_key_env",
                reason="credential_refused",
            )
        if status == 404:
            return UnsupportedError(
                f"the model provider at {self._endpoint} has no model {model!r} "
                f"or no Chat Completions endpoint ({detail}); check the model name "
                "and that base_url ends with the API root, e.g. /v1",
                reason="model_not_found",
            )
        if status == 429:
            return TargetError(
                f"the model provider at {self._endpoint} is rate limiting "
                f"({detail}); no retry was made",
                reason="provider_rate_limited",
            )
        if status >= 500:
            return TargetError(
                f"the model provider at {self._endpoint} failed ({detail}); "
                "no retry was made",
                reason="provider_server_error",
            )
        return TargetError(
            f"the model provider at {self._endpoint} rejected the request ({detail})",
            reason="provider_http_error",
        )


def _json_body(body: dict[str, object]) -> bytes:
    """The request body as UTF-8 JSON.

    A conversation may echo a model's lone surrogate (in the arguments of a
    denied tool call), which UTF-8 cannot carry: then the body is sent with
    every non-ASCII character escaped, exactly as the model's JSON had it.
    """
    text = json.dumps(body, ensure_ascii=False, allow_nan=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(body, allow_nan=False).encode("ascii")


async def _read_bounded(response: httpx.Response, limit: int) -> bytes | None:
    """Read a response body of at most ``limit`` bytes; ``None`` when it is larger.

    A declared ``Content-Length`` over the limit is refused before reading. A body
    without one is read to its end (bounded in time by the request deadline) but
    only ``limit`` bytes are kept: stopping httpx's byte iterator early would leave
    its inner async generators to the garbage collector, which trio reports.
    """
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size <= limit:
            chunks.append(chunk)
    return b"".join(chunks) if size <= limit else None


def _build_headers(
    api_key: str | None, extra_headers: Mapping[str, str]
) -> dict[str, str]:
    headers = {
        "Accept": "application/json",
        "Content-Type": "application/json",
        "User-Agent": f"artemiskit/{__version__}",
    }
    lowered = set()
    for name, value in extra_headers.items():
        if not isinstance(name, str) or not _is_token(name):
            raise ConfigError("an extra header name is not a valid HTTP token")
        key = name.lower()
        if key in _RESERVED_HEADERS or key in lowered:
            raise ConfigError(f"extra header {name!r} is reserved or repeated")
        if not isinstance(value, str) or not _is_header_value(value):
            raise ConfigError(
                f"extra header {name!r} must be printable ASCII on one line"
            )
        if key == "authorization" and api_key is not None:
            raise ConfigError(
                "give the credential either as api_key or as an Authorization "
                "extra header, not both"
            )
        lowered.add(key)
        headers[name] = value
    if api_key is not None:
        if not api_key.strip() or not _is_header_value(api_key):
            raise ConfigError(
                "the provider api_key must be non-empty printable ASCII on one line"
            )
        headers["Authorization"] = f"Bearer {api_key}"
    return headers


def _is_token(name: str) -> bool:
    allowed = "!#$%&'*+-.^_`|~"
    return bool(name) and all(
        ch.isascii() and (ch.isalnum() or ch in allowed) for ch in name
    )


def _is_header_value(value: str) -> bool:
    return all(ch == "\t" or 0x20 <= ord(ch) < 0x7F for ch in value)
