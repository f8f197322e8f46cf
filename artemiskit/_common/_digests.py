"""The project's one way to digest evidence: ``sha256:`` + hex."""

from __future__ import annotations

import hashlib
import json
from typing import Any

__all__ = ["bytes_digest", "json_digest"]


def bytes_digest(data: bytes) -> str:
    """``sha256:`` and the hex digest of ``data``."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def json_digest(value: Any) -> str:
    """The digest of ``value``'s canonical JSON (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return bytes_digest(text.encode("utf-8"))
