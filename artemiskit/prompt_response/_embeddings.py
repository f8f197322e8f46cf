"""The embeddings endpoint of an OpenAI-compatible provider entry (``similarity``).

``POST {base_url}/embeddings`` with ``{"model", "input"}``; the first vector of
``data`` is the embedding. Like the chat client: one request per call, no
transport retries, no environment proxies, the credential only in the
Authorization header, one deadline per request that cancels it, and error messages
that name the host and status, never the key or the body. The answer is read
compressed and decompressed here, chunk by chunk, with the decompressed bytes
counted as they come: an answer past 16 MiB (a compression bomb included) is
refused without ever being decompressed or held whole. httpx is imported here,
on first use.
"""

from __future__ import annotations

import json
import math
import zlib
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import anyio

from artemiskit._errors import TargetError
from artemiskit._version import __version__

if TYPE_CHECKING:
    import httpx

    from artemiskit.providers._config import ProviderConfig

__all__ = ["DEFAULT_EMBEDDING_MODEL", "OpenAIEmbeddings"]

DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small"
_DEFAULT_BASE_URL = "https://api.openai.com/v1"
_MAX_BODY_BYTES = 16 * 1024 * 1024


class OpenAIEmbeddings:
    """Embeddings of one ``openai``-type provider entry."""

    def __init__(self, entry: ProviderConfig) -> None:
        """Resolve the endpoint and credential; no connection is made yet.

        Raises:
            ConfigError: The entry's credential variable is not set.
        """
        self._base = (entry.base_url or _DEFAULT_BASE_URL).rstrip("/")
        self._label = f"provider {entry.name!r} ({urlsplit(self._base).netloc})"
        self._timeout_s = entry.request_timeout_ms / 1000
        headers = {
            "Accept": "application/json",
            "Accept-Encoding": "gzip, deflate",
            "Content-Type": "application/json",
            "User-Agent": f"artemiskit/{__version__}",
            **entry.headers,
        }
        key = entry.resolve_api_key()
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
        self._headers = headers
        self._client: httpx.AsyncClient | None = None

    def __repr__(self) -> str:
        return f"OpenAIEmbeddings({self._label})"

    async def embed(self, text: str, model: str | None) -> list[float]:
        """The embedding of ``text``.

        Raises:
            TargetError: The request failed, timed out, or the answer holds no
                vector of finite numbers.
        """
        import httpx

        if self._client is None:
            self._client = httpx.AsyncClient(
                transport=httpx.AsyncHTTPTransport(retries=0, trust_env=False),
                timeout=httpx.Timeout(self._timeout_s),
                follow_redirects=False,
                trust_env=False,
            )
        body = json.dumps({"model": model or DEFAULT_EMBEDDING_MODEL, "input": text})
        status, raw = 0, b""
        with anyio.move_on_after(self._timeout_s) as deadline:
            try:
                async with self._client.stream(
                    "POST",
                    f"{self._base}/embeddings",
                    content=body,
                    headers=self._headers,
                ) as response:
                    status = response.status_code
                    if 200 <= status < 300:
                        raw = await _read_bounded(response, self._label)
            except httpx.HTTPError as exc:
                raise TargetError(
                    f"{self._label}: embeddings request failed ({type(exc).__name__})"
                ) from None
        if deadline.cancelled_caught:
            raise TargetError(f"{self._label}: embeddings request timed out")
        if not 200 <= status < 300:
            raise TargetError(f"{self._label}: embeddings HTTP {status}")
        return _vector(raw, self._label)

    async def aclose(self) -> None:
        """Close the connections."""
        client, self._client = self._client, None
        if client is not None:
            with anyio.CancelScope(shield=True):
                await client.aclose()


def _decoder(encoding: str, label: str) -> Any:
    """A zlib decompressor for ``Content-Encoding`` (``None``: not compressed)."""
    name = encoding.strip().lower()
    if name in ("", "identity"):
        return None
    if name in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if name == "deflate":
        return zlib.decompressobj()
    raise TargetError(f"{label}: the embeddings answer has an unsupported encoding")


async def _read_bounded(response: httpx.Response, label: str) -> bytes:
    """The decompressed body, refused once it passes `_MAX_BODY_BYTES`.

    The compressed bytes are read to their end (bounded in time by the request
    deadline; stopping httpx's iterator early would leave its inner async
    generators to the garbage collector), but nothing more is decompressed or
    kept once the decompressed size passes the limit.

    Raises:
        TargetError: The body is too large, or its compression is broken or
            unsupported.
    """
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > _MAX_BODY_BYTES:
        raise _too_large(label)
    decoder = _decoder(response.headers.get("content-encoding", ""), label)
    parts: list[bytes] = []
    size, refused = 0, ""
    async for chunk in response.aiter_raw():
        if refused:
            continue
        try:
            piece = (
                chunk
                if decoder is None
                else decoder.decompress(chunk, _MAX_BODY_BYTES + 1 - size)
            )
        except zlib.error:
            refused = "the embeddings answer is not validly compressed"
            continue
        size += len(piece)
        if size > _MAX_BODY_BYTES:
            refused, parts = "too large", []
            continue
        parts.append(piece)
    if refused == "too large":
        raise _too_large(label)
    if refused:
        raise TargetError(f"{label}: {refused}")
    return b"".join(parts)


def _too_large(label: str) -> TargetError:
    return TargetError(
        f"{label}: the embeddings answer is larger than {_MAX_BODY_BYTES} bytes"
    )


def _vector(raw: bytes, label: str) -> list[float]:
    try:
        data: Any = json.loads(raw)
        vector = data["data"][0]["embedding"]
    except (ValueError, KeyError, IndexError, TypeError, RecursionError):
        raise TargetError(f"{label}: the embeddings answer holds no vector") from None
    if not isinstance(vector, list) or not all(
        isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)
        for x in vector
    ):
        raise TargetError(f"{label}: the embeddings answer holds no vector")
    return [float(x) for x in vector]
