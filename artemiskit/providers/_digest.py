"""The digest of an effective transport configuration (SPEC 5).

Runs and checkpoints are bound to *which* endpoint, credential and settings served the
model, without ever holding the credential itself. `transport_digest` hashes a
canonical JSON document::

    {
      "digest_version": 1,
      "provider_type": "openai",
      "endpoint": "https://api.openai.com/v1",      # normalized, no credentials
      "credential": "<sha256 of the credential>" | null,
      "settings": {...}                              # sorted keys, plain JSON
    }

The credential enters only as a domain-separated SHA-256, so the digest changes when
the key changes while neither the digest nor anything derived from it reveals the key.

This module also owns `normalize_base_url`, shared with the OpenAI-compatible client,
so the endpoint that is digested is exactly the endpoint that is called. It imports
nothing outside the standard library (in particular, not httpx).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from urllib.parse import urlsplit, urlunsplit

from artemiskit._errors import ConfigError

__all__ = ["normalize_base_url", "transport_digest"]

_DIGEST_VERSION = 1
_CREDENTIAL_DOMAIN = b"artemiskit.transport-credential.v1\x00"
_MAX_URL_LENGTH = 2048


def normalize_base_url(base_url: str) -> str:
    """Check a provider base URL and return its canonical form.

    The scheme and host are lower-cased, a default port is dropped and trailing
    slashes are removed, so ``https://API.openai.com:443/v1/`` and
    ``https://api.openai.com/v1`` are the same endpoint.

    Args:
        base_url: An ``http`` or ``https`` URL such as ``http://127.0.0.1:8000/v1``.

    Returns:
        The normalized URL, without a trailing slash.

    Raises:
        ConfigError: The URL is not ``http(s)``, has no host, or carries
            credentials, a query or a fragment (the message never repeats it).
    """
    if not isinstance(base_url, str) or not base_url.strip():
        raise ConfigError("provider base_url must be a non-empty http(s) URL")
    text = base_url.strip()
    if len(text) > _MAX_URL_LENGTH or any(ord(ch) < 0x21 for ch in text):
        raise ConfigError(
            "provider base_url must be a URL of at most "
            f"{_MAX_URL_LENGTH} characters without spaces or control characters"
        )
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise ConfigError("provider base_url is not a valid URL") from exc
    scheme = parts.scheme.lower()
    if scheme not in {"http", "https"}:
        raise ConfigError("provider base_url must use http or https")
    if parts.username is not None or parts.password is not None:
        raise ConfigError(
            "provider base_url must not contain credentials; "
            "give the key as api_key or api_key_env instead"
        )
    if parts.query or parts.fragment or text.endswith(("?", "#")):
        raise ConfigError("provider base_url must not have a query or a fragment")
    host = (parts.hostname or "").lower()
    if not host:
        raise ConfigError("provider base_url has no host")
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    default_port = 443 if scheme == "https" else 80
    netloc = host if port is None or port == default_port else f"{host}:{port}"
    path = parts.path.rstrip("/")
    return urlunsplit((scheme, netloc, path, "", ""))


def credential_digest(credential: str | None) -> str | None:
    """Return a domain-separated SHA-256 hex digest of a credential.

    Args:
        credential: The secret, or ``None`` when the endpoint needs none.

    Returns:
        The hex digest, or ``None`` for no credential.
    """
    if credential is None:
        return None
    return hashlib.sha256(_CREDENTIAL_DOMAIN + credential.encode("utf-8")).hexdigest()


def transport_digest(
    *,
    provider_type: str,
    base_url: str,
    api_key: str | None,
    settings: Mapping[str, object],
) -> str:
    """Digest the effective transport configuration of a provider.

    Args:
        provider_type: The provider implementation, e.g. ``openai``.
        base_url: The endpoint; normalized first (see `normalize_base_url`).
        api_key: The credential, or ``None``. Only its SHA-256 is digested.
        settings: Further transport settings that change what is called or how
            (e.g. ``request_timeout_ms``, header *names*). Plain JSON values only:
            strings, finite numbers, booleans, ``None``, mappings with string keys,
            and sequences. Never put a secret here in clear text.

    Returns:
        A 64-character SHA-256 hex digest, stable across processes and key order.

    Raises:
        ConfigError: ``base_url`` is not an acceptable endpoint.
        TypeError: ``settings`` holds a value that has no canonical JSON form.
    """
    document = {
        "digest_version": _DIGEST_VERSION,
        "provider_type": provider_type,
        "endpoint": normalize_base_url(base_url),
        "credential": credential_digest(api_key),
        "settings": _canonical(settings, "$.settings"),
    }
    text = json.dumps(
        document,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _canonical(value: object, path: str) -> object:
    """Return ``value`` as plain JSON data, refusing anything without one form."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise TypeError(f"transport setting must be a finite number @ {path}")
        return value
    if isinstance(value, Mapping):
        plain: dict[str, object] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"transport setting keys must be strings @ {path}")
            plain[key] = _canonical(item, f"{path}.{key}")
        return plain
    if isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        return [_canonical(item, f"{path}[{i}]") for i, item in enumerate(value)]
    raise TypeError(
        f"transport setting of type {type(value).__name__} has no canonical JSON "
        f"form @ {path}"
    )
