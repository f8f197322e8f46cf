"""Model providers: the registry of provider types and the built-in ones.

``openai`` drives any OpenAI-compatible chat endpoint (`OpenAIClient`),
``azure-openai`` an Azure OpenAI deployment (`AzureOpenAIClient`), ``anthropic`` the
Anthropic Messages API (`AnthropicClient`); the clients load on first access, so
``import artemiskit.providers`` never imports httpx. ``scripted`` replays a script
offline (`ScriptedTarget`). Register your own type with
`register_provider`, or install it under the entry-point group
``artemiskit.providers``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from artemiskit.providers._digest import transport_digest
from artemiskit.providers._registry import (
    ENTRY_POINT_GROUP,
    ProviderBuilder,
    ProviderRequest,
    ProviderTarget,
    create_provider_target,
    load_provider_entry_points,
    provider_types,
    register_provider,
)
from artemiskit.providers._scripted import (
    ScriptCase,
    ScriptedTarget,
    ScriptEntry,
    load_script,
    parse_script,
)
from artemiskit.providers._shared import SharedTransports

if TYPE_CHECKING:
    from artemiskit.providers._anthropic import AnthropicClient
    from artemiskit.providers._openai import AzureOpenAIClient, OpenAIClient

__all__ = [
    "AnthropicClient",
    "AzureOpenAIClient",
    "ENTRY_POINT_GROUP",
    "OpenAIClient",
    "ProviderBuilder",
    "ProviderRequest",
    "ProviderTarget",
    "ScriptCase",
    "ScriptEntry",
    "ScriptedTarget",
    "SharedTransports",
    "create_provider_target",
    "load_provider_entry_points",
    "load_script",
    "parse_script",
    "provider_types",
    "register_provider",
    "transport_digest",
]


def __getattr__(name: str) -> object:
    if name == "AnthropicClient":
        from artemiskit.providers._anthropic import AnthropicClient

        return AnthropicClient
    if name in ("AzureOpenAIClient", "OpenAIClient"):
        from artemiskit.providers import _openai

        return getattr(_openai, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
