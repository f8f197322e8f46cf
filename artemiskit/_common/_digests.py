"""The project's one way to digest evidence: ``sha256:`` + hex."""

from __future__ import annotations

import hashlib
import json
from typing import Any

__all__ = ["bytes_digest", "canonical_json", "json_digest"]


def bytes_digest(data: bytes) -> str:
    """``sha256:`` and the hex digest of ``data``."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def canonical_json(value: Any) -> str:
    """``value``'s canonical JSON: sorted keys, no spaces, non-ASCII as is."""
    return _CANONICAL.encode(value)


def json_digest(value: Any) -> str:
    """The digest of ``value``'s canonical JSON (sorted keys, no spaces, UTF-8)."""
    return bytes_digest(canonical_json(value).encode("utf-8"))
