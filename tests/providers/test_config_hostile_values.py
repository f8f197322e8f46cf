"""Any legal YAML value, anywhere in a trusted or judge configuration, is located.

Huge integers (in any base) and lone surrogate escapes at every value and key
position of a configuration and of a judge configuration (SPEC 11): the loaders
raise nothing but `ConfigError`, and each problem has a line and column.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, strategies as st

from artemiskit import ConfigError
from artemiskit.providers import parse_judge_config, parse_trusted_config
from tests._hostile_values import HOSTILE, KEY, SETTINGS, hostile, located, positions

CONFIG: dict[str, Any] = {
    "providers": {
        "local": {
            "type": "openai",
            "base_url": "http://127.0.0.1:8000/v1",
            "request_timeout_ms": 1000,
            "headers": {"X-Team": "evals"},
        },
        "replay": {"type": "scripted", "scripts_dir": "scripts"},
    },
    "sandbox": {"image": "img", "pids_limit": 64},
}
JUDGE: dict[str, Any] = {
    "provider": "local",
    "model": "judge-model",
    "max_requests": 4,
    "max_tokens": 8000,
    "timeout_ms": 30000,
    "providers": {"local": CONFIG["providers"]["local"]},
}


@SETTINGS
@given(st.sampled_from(positions(CONFIG)), st.sampled_from(HOSTILE))
def test_configuration(position: tuple[Any, ...], raw: str) -> None:
    assume(position[-1] is not KEY or raw.startswith('"'))
    with pytest.raises(ConfigError, match=r"c.yaml: invalid configuration") as caught:
        parse_trusted_config(hostile(CONFIG, position, raw), source="c.yaml")
    located(caught.value.problems)


@SETTINGS
@given(st.sampled_from(positions(JUDGE)), st.sampled_from(HOSTILE))
def test_judge_configuration(position: tuple[Any, ...], raw: str) -> None:
    assume(position[-1] is not KEY or raw.startswith('"'))
    with pytest.raises(
        ConfigError, match=r"j.yaml: invalid judge configuration"
    ) as caught:
        parse_judge_config(hostile(JUDGE, position, raw), source="j.yaml")
    located(caught.value.problems)
