"""The HTTP transport every built-in network provider shares (SPEC 5 and 16).

`HttpModelClient` owns what does not depend on the wire format: the httpx client,
the one deadline per request, the bounded body, cancellation, and how a failed
request becomes an error that names the host and the status. A protocol subclass
(`OpenAIClient`, `AzureOpenAIClient`, `AnthropicClient`) says where to post, which
credential header to send, and how to encode a request and parse an answer.

Guarantees:

- **One `complete` call is exactly one HTTP request.** The transport is built with
  ``retries=0`` and redirects are not followed, so the budget counters of the engine
  count real requests. Accounted retries (SPEC 16) happen above the client, each one
  admitted by the engine as a model request of its own.
- **Cancellation aborts the request.** An anyio cancel scope (or ``session.cancel()``)
  interrupts the request wherever it is; the connection is closed, never reused.
- **One deadline per request.** ``request_timeout_ms`` bounds the whole request,
  from connecting to the last byte of the body; when it passes, `TargetError`.
- **The credential stays in its header.** It is never part of an exception message,
  a repr or a log line; neither is a query string. Environment proxies, ``.netrc``
  and certificate locations (``SSL_CERT_FILE``, ``SSL_CERT_DIR``) are not consulted
  (``trust_env=False`` on the client and its transport), so the effective transport
  is exactly the configured one.

The provider modules are the only ones of the SDK that import httpx.
"""

from __future__ import annotations

import json
import ssl
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any, Self

import anyio
import httpx

from artemiskit._errors import (
    ConfigError,
    InvalidResponseError,
    TargetError,
    UnsupportedError,
)
from artemiskit._version import __version__
from artemiskit.providers._chat_protocol import error_code_of
from artemiskit.providers._digest import normalize_base_url
from artemiskit.providers._retries import ProviderFailure

if TYPE_CHECKING:
    from collections.abc import Mapping
    from types import TracebackType

    from artemiskit.targets._protocol import ModelRequest, TargetResponse

__all__ = [
    "HttpModelClient",
    "check_timeout",
    "credential_value",
    "json_body",
    "new_http_client",
]

MAX_TIMEOUT_MS = 3_600_000
_MAX_RESPONSE_BYTES = 16 * 1024 * 1024
_MAX_ERROR_BODY_BYTES = 64 * 1024
_MIN_WITHHELD_CHARS = 6
_RESERVED_HEADERS = frozenset(
    {"content-length", "content-type", "transfer-encoding", "host", "connection"}
)
#: The statuses that prove an overloaded server did not process the request.
OVERLOADED_STATUSES = frozenset({503, 529})


def new_http_client(request_timeout_ms: int) -> httpx.AsyncClient:
    """An HTTP client as `HttpModelClient` makes its own: no retries, no proxies.

    Share one among several clients (of any built-in provider type) by passing
    it as their ``http_client``; they never close it.
    """
    return httpx.AsyncClient(
        transport=httpx.AsyncHTTPTransport(retries=0, trust_env=False),
        timeout=httpx.Timeout(request_timeout_ms / 1000),
        follow_redirects=False,
        trust_env=False,
    )


def check_timeout(request_timeout_ms: object) -> int:
    """Return ``request_timeout_ms`` if it is an integer from 1 to 3,600,000.

    Raises:
        ConfigError: It is not.
    """
    if (
        isinstance(request_timeout_ms, bool)
        or not isinstance(request_timeout_ms, int)
        or not 1 <= request_timeout_ms <= MAX_TIMEOUT_MS
    ):
        raise ConfigError(
            f"request_timeout_ms must be an integer from 1 to {MAX_TIMEOUT_MS}"
        )
    return request_timeout_ms


class HttpModelClient:
    """The transport half of a `ModelClient`; subclasses supply the protocol.

    Subclasses set `protocol` (how errors name the wire format) and
    `not_found_hint` (what to check on HTTP 404), and implement
    `_encode`, `_parse` and, if needed, `_error_code`.
    """

    protocol = "HTTP"
    not_found_hint = "check the model name and the endpoint settings"

    def __init__(
        self,
        *,
        base_url: str,
        path: str,
        params: Mapping[str, str] | None,
        credential_headers: Mapping[str, str],
        has_key: bool,
        request_timeout_ms: int,
        extra_headers: Mapping[str, str] | None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self._has_key = has_key
        self._endpoint = normalize_base_url(base_url)
        self._url = f"{self._endpoint}{path}"
        self._params = dict(params or {})
        self._request_timeout_ms = check_timeout(request_timeout_ms)
        self._timeout_s = request_timeout_ms / 1000
        self._headers = _build_headers(credential_headers, extra_headers or {})
        #: Values an error code must not repeat (a server may echo the key there).
        self._withheld = tuple(
            value
            for value in (*credential_headers.values(), *(extra_headers or {}).values())
            if len(value) >= _MIN_WITHHELD_CHARS
        )
        self._header_names = tuple(sorted(k.lower() for k in (extra_headers or {})))
        self._client: httpx.AsyncClient | None = None
        #: A connection pool shared with other clients; never closed here.
        self._shared = http_client
        self._closed = False

    @property
    def endpoint(self) -> str:
        """The normalized base URL (never contains credentials)."""
        return self._endpoint

    def __repr__(self) -> str:
        key = "<set>" if self._has_key else "None"
        return (
            f"{type(self).__name__}(base_url={self._endpoint!r}, api_key={key}, "
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
        """Send one request and parse the answer.

        Args:
            request: Model, conversation, tools and sampling settings.

        Returns:
            The answer's text, tool calls (arguments as the server sent them) and
            usage (``None`` when the server reported none).

        Raises:
            InvalidResponseError: The answer is outside the protocol (exit 2).
            ConfigError: The server refused the credential, HTTP 401/403 (exit 1).
            UnsupportedError: The model or endpoint does not exist, HTTP 404
                (exit 3).
            TargetError: A server error, another HTTP error status, a network
                failure or the request deadline (exit 7); a `ProviderFailure`
                when the failure proves the request was not processed.
        """
        if self._closed:
            raise TargetError(f"the {self.protocol} client is closed")
        content = json_body(self._encode(request))
        client = self._http_client()
        with anyio.move_on_after(self._timeout_s) as deadline:
            status, body, retry_after = await self._post(client, content)
        if deadline.cancelled_caught:
            raise self._timed_out()
        if 200 <= status < 300:
            return self._parse(body, request)
        raise self._status_error(status, body, request.model, retry_after)

    def _encode(self, request: ModelRequest) -> dict[str, Any]:
        raise NotImplementedError

    def _parse(self, body: bytes, request: ModelRequest) -> TargetResponse:
        raise NotImplementedError

    def _error_code(self, body: bytes) -> str | None:
        return error_code_of(body)

    def _http_client(self) -> httpx.AsyncClient:
        if self._shared is not None:
            return self._shared
        if self._client is None:
            self._client = new_http_client(self._request_timeout_ms)
        return self._client

    async def _post(
        self, client: httpx.AsyncClient, content: bytes
    ) -> tuple[int, bytes, float | None]:
        try:
            async with client.stream(
                "POST",
                self._url,
                params=self._params,
                content=content,
                headers=self._headers,
            ) as response:
                status = response.status_code
                success = 200 <= status < 300
                limit = _MAX_RESPONSE_BYTES if success else _MAX_ERROR_BODY_BYTES
                retry_after = _retry_after_s(response.headers.get("retry-after"))
                body = await _read_bounded(response, limit)
        except httpx.TimeoutException as exc:
            raise self._timed_out() from exc
        except httpx.DecodingError as exc:
            raise InvalidResponseError(
                "the provider's response body could not be decoded"
            ) from exc
        except httpx.HTTPError as exc:
            raise self._transport_error(exc) from exc
        if body is not None:
            return status, body, retry_after
        if success:
            raise InvalidResponseError(
                f"the provider's response body exceeds {limit} bytes"
            )
        return status, b"", retry_after  # an oversized error body loses its code

    def _transport_error(self, exc: httpx.HTTPError) -> TargetError:
        causes = _causes(exc)
        if (
            isinstance(exc, httpx.ConnectError)
            and causes
            and all(isinstance(cause, ConnectionRefusedError) for cause in causes)
        ):
            return ProviderFailure(
                f"the model provider at {self._endpoint} refused the connection "
                "(nothing was sent); no retry was made",
                reason="provider_connect_refused",
                retry_class="connect_refused",
            )
        tls = [cause for cause in causes if isinstance(cause, ssl.SSLError)]
        if tls:
            what = (
                "its certificate could not be verified"
                if isinstance(tls[0], ssl.SSLCertVerificationError)
                else f"{type(tls[0]).__name__}"
            )
            return TargetError(
                f"the TLS handshake with the model provider at {self._endpoint} "
                f"failed ({what}); no retry was made",
                reason="provider_tls_failure",
            )
        return TargetError(
            f"could not complete the request to the model provider at "
            f"{self._endpoint} ({type(exc).__name__}); no retry was made",
            reason="provider_unreachable",
        )

    def _echoes_credential(self, code: str) -> bool:
        return any(
            value in code
            or (len(code) >= _MIN_WITHHELD_CHARS and code in value)
            or (value.split() or [value])[-1] in code
            for value in self._withheld
        )

    def _timed_out(self) -> TargetError:
        return TargetError(
            f"the model provider at {self._endpoint} did not answer within "
            f"request_timeout_ms={self._request_timeout_ms}; no retry was made",
            reason="provider_timeout",
        )

    def _status_error(
        self, status: int, body: bytes, model: str, retry_after_s: float | None
    ) -> ConfigError | UnsupportedError | TargetError:
        code = self._error_code(body)
        if code == str(status) or (code and self._echoes_credential(code)):
            code = None  # says nothing new, or repeats (part of) a credential
        detail = f"HTTP {status}" + (f", {code}" if code else "")
        where = f"the model provider at {self._endpoint}"
        if status in (401, 403):
            return ConfigError(
                f"{where} refused the credential ({detail}); check the provider's "
                "api_key or api_key_env",
                reason="credential_refused",
            )
        if status == 404:
            return UnsupportedError(
                f"{where} has no model {model!r} or no {self.protocol} endpoint "
                f"({detail}); {self.not_found_hint}",
                reason="model_not_found",
            )
        if status == 429:
            return ProviderFailure(
                f"{where} is rate limiting ({detail}); no retry was made",
                reason="provider_rate_limited",
                retry_class="rate_limited",
                retry_after_s=retry_after_s,
            )
        if status in OVERLOADED_STATUSES:
            return ProviderFailure(
                f"{where} is overloaded ({detail}); no retry was made",
                reason="provider_overloaded",
                retry_class="overloaded",
                retry_after_s=retry_after_s,
            )
        if status >= 500:
            return TargetError(
                f"{where} failed ({detail}); no retry was made",
                reason="provider_server_error",
            )
        return TargetError(
            f"{where} rejected the request ({detail})", reason="provider_http_error"
        )


def json_body(body: dict[str, object]) -> bytes:
    """The request body as UTF-8 JSON.

    A conversation may echo a model's lone surrogate (in the arguments of a
    denied tool call), which UTF-8 cannot carry: then the body is sent with
    every non-ASCII character escaped, exactly as the model's JSON had it.

    Raises:
        TargetError: A non-finite number or a non-JSON value in the settings or
            a tool schema (``invalid_model_request``), before any request.
    """
    try:
        text = json.dumps(body, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise TargetError(
            "the model request cannot be encoded as JSON (a non-finite number "
            "or a non-JSON value in the settings or a tool schema)",
            reason="invalid_model_request",
        ) from exc
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(body, allow_nan=False).encode("ascii")


def _causes(exc: BaseException) -> list[BaseException]:
    """The innermost causes of ``exc``, exception groups flattened."""
    leaves: list[BaseException] = []
    pending: list[BaseException] = [exc]
    seen: set[int] = set()
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, BaseExceptionGroup):
            pending.extend(current.exceptions)
            continue
        inner = current.__cause__ or current.__context__
        if inner is None:
            leaves.append(current)
        else:
            pending.append(inner)
    return leaves


def _retry_after_s(value: str | None) -> float | None:
    """``Retry-After`` in seconds (delta-seconds or an HTTP date); else ``None``."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return float(int(text[:9]))
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


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
    credential_headers: Mapping[str, str], extra_headers: Mapping[str, str]
) -> dict[str, str]:
    headers = {
        "Accept": "application/json",
        "Content-Type": "application/json",
        "User-Agent": f"artemiskit/{__version__}",
    }
    credential_names = {name.lower() for name in credential_headers}
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
        if key in credential_names:
            raise ConfigError(
                "give the credential either as api_key or as an "
                f"{name} extra header, not both"
            )
        lowered.add(key)
        headers[name] = value
    for name, value in credential_headers.items():
        headers[name] = value
    return headers


def credential_value(api_key: str | None) -> str | None:
    """Return ``api_key`` if it can travel in a header.

    Raises:
        ConfigError: It is empty, or not printable ASCII on one line (the message
            never repeats it).
    """
    if api_key is not None and (not api_key.strip() or not _is_header_value(api_key)):
        raise ConfigError(
            "the provider api_key must be non-empty printable ASCII on one line"
        )
    return api_key


def _is_token(name: str) -> bool:
    allowed = "!#$%&'*+-.^_`|~"
    return bool(name) and all(
        ch.isascii() and (ch.isalnum() or ch in allowed) for ch in name
    )


def _is_header_value(value: str) -> bool:
    return all(ch == "\t" or 0x20 <= ord(ch) < 0x7F for ch in value)
