"""`artemiskit.providers`: its lazy httpx import and the OpenAI client's settings."""

from __future__ import annotations

import subprocess
import sys

import pytest

import artemiskit.providers
from artemiskit._errors import ConfigError
from artemiskit.providers import OpenAIClient
from artemiskit.targets import ModelClient

SECRET = "sk-test-SECRET-0123456789abcdef"


def test_unknown_attribute_raises() -> None:
    with pytest.raises(AttributeError):
        _ = artemiskit.providers.NoSuchThing  # type: ignore[attr-defined]


def test_importing_the_sdk_does_not_import_httpx() -> None:
    code = (
        "import sys, artemiskit, artemiskit.providers\n"
        "assert 'httpx' not in sys.modules, 'httpx imported eagerly'\n"
        "artemiskit.providers.OpenAIClient\n"
        "assert 'httpx' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_client_is_a_model_client_and_hides_the_key() -> None:
    client = OpenAIClient(
        api_key=SECRET, extra_headers={"X-Secret-Header": "hidden-value"}
    )
    assert isinstance(client, ModelClient)
    text = repr(client)
    assert SECRET not in text
    assert "hidden-value" not in text
    assert "api_key=<set>" in text
    assert "x-secret-header" in text
    assert client.endpoint == "https://api.openai.com/v1"
    assert "api_key=None" in repr(OpenAIClient())


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"request_timeout_ms": 0}, "request_timeout_ms"),
        ({"request_timeout_ms": True}, "request_timeout_ms"),
        ({"api_key": ""}, "api_key"),
        ({"api_key": SECRET + "\r\nX-Evil: 1"}, "api_key"),
        ({"extra_headers": {"Bad Name": "x"}}, "header"),
        ({"extra_headers": {"X-A": "line\nbreak"}}, "X-A"),
        ({"extra_headers": {"Content-Length": "1"}}, "reserved"),
        ({"api_key": SECRET, "extra_headers": {"Authorization": "x"}}, "not both"),
    ],
)
def test_invalid_settings_are_config_errors(
    options: dict[str, object], fragment: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        OpenAIClient(**options)  # type: ignore[arg-type]
    assert fragment in str(caught.value)
    assert SECRET not in str(caught.value)
