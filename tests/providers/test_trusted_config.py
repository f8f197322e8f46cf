"""The trusted configuration: provider entries and sandbox settings."""

from __future__ import annotations

import pytest

from artemiskit import ConfigError
from artemiskit.environments import SandboxConfig
from artemiskit.providers import parse_trusted_config


def test_an_entry_may_name_a_registered_provider_type() -> None:
    config = parse_trusted_config("providers:\n  house:\n    type: in-house\n")
    assert config.providers["house"].type == "in-house"
    assert (
        parse_trusted_config("providers:\n  openai: {}\n").providers["openai"].type
        == "openai"
    )


@pytest.mark.parametrize("kind", ["'Not A Name'", "1", "''", "[openai]"])
def test_a_provider_type_must_be_a_type_name(kind: str) -> None:
    text = f"providers:\n  house:\n    type: {kind}\n"
    with pytest.raises(ConfigError, match="invalid configuration") as caught:
        parse_trusted_config(text, source="c.yaml")
    assert [p.path for p in caught.value.problems] == ["$.providers.house.type"]
    assert "must be a provider type name" in caught.value.problems[0].message


def test_sandbox_settings_keep_defaults_unless_given() -> None:
    config = parse_trusted_config("sandbox:\n  image: mine:1\n  pids_limit: 16\n")
    assert config.sandbox == SandboxConfig(image="mine:1", pids_limit=16)
    assert parse_trusted_config("{}").sandbox == SandboxConfig()
