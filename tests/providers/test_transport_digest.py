"""The transport digest: stable, sensitive to every input, never the credential."""

from __future__ import annotations

import hashlib
import math
from typing import Any

import pytest
from hypothesis import given, strategies as st

from artemiskit._errors import ConfigError
from artemiskit.providers import OpenAIClient, transport_digest
from artemiskit.providers._digest import credential_digest, normalize_base_url

SECRET = "sk-test-SECRET-0123456789abcdef"

BASE: dict[str, Any] = {
    "provider_type": "openai",
    "base_url": "https://api.openai.com/v1",
    "api_key": SECRET,
    "settings": {"request_timeout_ms": 60000, "extra_headers": ["x-team"]},
}


def digest(**changes: Any) -> str:
    return transport_digest(**{**BASE, **changes})


def test_digest_is_stable_and_hex() -> None:
    value = digest()
    assert value == digest()
    assert len(value) == 64
    assert int(value, 16) >= 0


def test_digest_ignores_key_order_and_url_spelling() -> None:
    reordered = {"extra_headers": ["x-team"], "request_timeout_ms": 60000}
    assert digest(settings=reordered) == digest()
    assert digest(base_url="HTTPS://API.openai.com:443/v1/") == digest()


@pytest.mark.parametrize(
    "changes",
    [
        {"provider_type": "other"},
        {"base_url": "http://127.0.0.1:8000/v1"},
        {"base_url": "https://api.openai.com/v2"},
        {"api_key": SECRET + "x"},
        {"api_key": None},
        {"settings": {"request_timeout_ms": 60001, "extra_headers": ["x-team"]}},
        {"settings": {}},
    ],
)
def test_digest_changes_with_every_input(changes: dict[str, Any]) -> None:
    assert digest(**changes) != digest()


def test_digest_never_holds_the_credential() -> None:
    value = digest()
    assert SECRET not in value
    assert hashlib.sha256(SECRET.encode()).hexdigest() not in value
    assert credential_digest(SECRET) != hashlib.sha256(SECRET.encode()).hexdigest()
    assert credential_digest(None) is None


@pytest.mark.parametrize(
    "settings",
    [{"x": math.nan}, {"x": object()}, {"x": {1: "a"}}, {"x": b"bytes"}],
    ids=["nan", "object", "int-key", "bytes"],
)
def test_settings_without_canonical_json_are_refused(settings: Any) -> None:
    with pytest.raises(TypeError):
        digest(settings=settings)


@pytest.mark.parametrize(
    "url",
    [
        "",
        "ftp://example.com/v1",
        "https://user:pass@example.com/v1",
        "https://example.com/v1?key=1",
        "https://example.com/v1#x",
        "https:///v1",
        "https://exa mple.com/v1",
        "http://example.com:99999/v1",
    ],
)
def test_bad_endpoints_are_config_errors(url: str) -> None:
    with pytest.raises(ConfigError) as caught:
        normalize_base_url(url)
    assert "pass" not in str(caught.value)
    with pytest.raises(ConfigError):
        OpenAIClient(base_url=url)


def test_normalization_keeps_ports_and_ipv6() -> None:
    assert normalize_base_url("http://127.0.0.1:8000/v1/") == "http://127.0.0.1:8000/v1"
    assert normalize_base_url("http://[::1]:11434/v1") == "http://[::1]:11434/v1"
    assert normalize_base_url("http://localhost:80/v1") == "http://localhost/v1"


@given(
    settings=st.dictionaries(
        st.text(max_size=8),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=8),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=4), inner, max_size=3)
            ),
            max_leaves=8,
        ),
        max_size=4,
    ),
    key=st.text(min_size=1, max_size=40),
)
def test_digest_is_deterministic_and_hides_any_key(
    settings: dict[str, Any], key: str
) -> None:
    value = transport_digest(
        provider_type="openai",
        base_url="http://127.0.0.1:8000/v1",
        api_key=key,
        settings=settings,
    )
    assert value == transport_digest(
        provider_type="openai",
        base_url="http://127.0.0.1:8000/v1/",
        api_key=key,
        settings=dict(reversed(list(settings.items()))),
    )
    assert len(value) == 64
