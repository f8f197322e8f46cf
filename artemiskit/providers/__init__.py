"""Model providers: the registry of provider types and the built-in ones.

``openai`` drives any OpenAI-compatible chat endpoint (`OpenAIClient`),
``azure-openai`` an Azure OpenAI deployment (`AzureOpenAIClient`), ``anthropic`` the
Anthropic Messages API (`AnthropicClient`); the clients load on first access, so
``import artemiskit.providers`` never imports httpx. ``scripted`` replays a script
offline (`ScriptedTarget`). A run can be recorded into a cassette and answered
from it (SPEC 22, docs/replay.md); `ReplayMode` names how strictly. Register
your own type with `register_provider`, or install it under the entry-point group
``artemiskit.providers``.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit.providers._anthropic import (
        AnthropicClient as AnthropicClient,
    )
    from artemiskit.providers._config import (
        ProviderConfig as ProviderConfig,
        ProviderRetryPolicy as ProviderRetryPolicy,
        parse_trusted_config as parse_trusted_config,
    )
    from artemiskit.providers._digest import (
        transport_digest as transport_digest,
    )
    from artemiskit.providers._judge_config import (
        JudgeConfig as JudgeConfig,
        load_judge_config as load_judge_config,
        parse_judge_config as parse_judge_config,
    )
    from artemiskit.providers._openai import (
        AzureOpenAIClient as AzureOpenAIClient,
        OpenAIClient as OpenAIClient,
    )
    from artemiskit.providers._registry import (
        ENTRY_POINT_GROUP as ENTRY_POINT_GROUP,
        ProviderBuilder as ProviderBuilder,
        ProviderRequest as ProviderRequest,
        ProviderTarget as ProviderTarget,
        create_provider_target as create_provider_target,
        load_provider_entry_points as load_provider_entry_points,
        provider_types as provider_types,
        register_provider as register_provider,
    )
    from artemiskit.providers._replay import (
        ReplayMode as ReplayMode,
    )
    from artemiskit.providers._scripted import (
        ScriptCase as ScriptCase,
        ScriptedTarget as ScriptedTarget,
        ScriptEntry as ScriptEntry,
        load_script as load_script,
        parse_script as parse_script,
    )
    from artemiskit.providers._shared import (
        SharedTransports as SharedTransports,
    )

_exports.export_lazily(globals())
