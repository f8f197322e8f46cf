"""Model providers: the OpenAI-compatible client and the transport digest.

`OpenAIClient` is loaded on first access, so ``import artemiskit.providers`` (and
``import artemiskit``) never imports httpx.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit.providers._digest import transport_digest

if TYPE_CHECKING:
    from artemiskit.providers._openai import OpenAIClient

__all__ = ["OpenAIClient", "transport_digest"]


def __getattr__(name: str) -> object:
    if name == "OpenAIClient":
        from artemiskit.providers._openai import OpenAIClient

        return OpenAIClient
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
