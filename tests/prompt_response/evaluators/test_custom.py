"""``custom``: an evaluator installed in the ``artemiskit.evaluators`` group."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from artemiskit import ConfigError
from artemiskit.prompt_response.evaluators._custom import registered_evaluators
from tests.prompt_response.evaluators._helpers import judge

if TYPE_CHECKING:
    from pathlib import Path

PLUGIN = """
from artemiskit.prompt_response import Evaluation


def shout(response, config):
    ok = response.isupper() and len(response) >= config.get("min", 0)
    reason = "loud" if ok else "quiet"
    return Evaluation(passed=ok, score=1.0 if ok else 0.0, reason=reason)


async def broken(response, config):
    return "not an evaluation"
"""


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real distribution on sys.path that declares two evaluators."""
    (tmp_path / "mine_evaluators.py").write_text(PLUGIN, encoding="utf-8")
    info = tmp_path / "mine_evaluators-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: mine-evaluators\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        "[artemiskit.evaluators]\nmine = mine_evaluators:shout\n"
        "broken = mine_evaluators:broken\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))


@pytest.mark.usefixtures("installed")
async def test_a_registered_evaluator_gets_the_response_and_config() -> None:
    assert {"mine", "broken"} <= set(registered_evaluators())
    expected = {"type": "custom", "evaluator": "mine", "config": {"min": 3}}
    result = await judge("HEY", expected)
    assert (result.passed, result.reason) == (True, "loud")
    assert not (await judge("hey", expected)).passed


@pytest.mark.usefixtures("installed")
async def test_an_evaluator_returning_junk_is_a_configuration_error() -> None:
    with pytest.raises(ConfigError, match="returned no Evaluation"):
        await judge("x", {"type": "custom", "evaluator": "broken"})
