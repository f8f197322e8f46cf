"""The judge configuration (``--judge-config``, SDK ``judge=``): parsing and loading."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import ConfigError, FileAccessError
from artemiskit.providers import load_judge_config, parse_judge_config

if TYPE_CHECKING:
    from pathlib import Path

JUDGE = """\
provider: local
model: judge-model
providers:
  local: {type: openai, base_url: "http://127.0.0.1:8000/v1"}
"""


def problems_of(text: str) -> list[tuple[str, int | None, int | None]]:
    with pytest.raises(ConfigError, match=r"j.yaml: invalid judge configuration"):
        parse_judge_config(text, source="j.yaml")
    try:
        parse_judge_config(text, source="j.yaml")
    except ConfigError as exc:
        return [(p.message, p.line, p.column) for p in exc.problems]
    raise AssertionError("unreachable")


def test_limits_default_and_own_providers_are_read() -> None:
    judge = parse_judge_config(JUDGE, source="j.yaml")
    assert (judge.provider, judge.model) == ("local", "judge-model")
    assert (judge.max_requests, judge.max_tokens, judge.timeout_ms) == (4, 8000, 30000)
    assert list(judge.providers.providers) == ["local"]
    assert judge.source == "j.yaml"


def test_without_providers_the_main_configuration_is_used() -> None:
    judge = parse_judge_config("provider: main\nmodel: m\nmax_requests: 2\n")
    assert judge.max_requests == 2
    assert len(judge.providers.providers) == 0


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("model: m\n", "is required and must be a string", 1),
        ("provider: p\nmodel: m\ncolour: red\n", "unknown key", 3),
        ("provider: p\nmodel: m\nmax_requests: 0\n", "must be an integer 1–1000", 3),
        ("provider: p\nmodel: m\ntimeout_ms: true\n", "must be an integer", 3),
        ("provider: p\nmodel: m\nmax_tokens: 1.5\n", "must be an integer", 3),
    ],
)
def test_each_problem_is_located(text: str, message: str, line: int) -> None:
    found = problems_of(text)
    assert any(message in m and l_ == line and c for m, l_, c in found), found


def test_a_list_is_not_a_judge_configuration() -> None:
    assert problems_of("- provider\n") == [("must be a mapping", 1, 1)]


def test_invalid_own_providers_are_listed_with_every_other_problem() -> None:
    text = (
        "provider: p\nmodel: m\nmax_requests: 0\n"
        "providers:\n  p: {type: openai, colour: 1}\n"
    )
    found = problems_of(text)
    assert [(m.split(" (")[0], line) for m, line, _ in found] == [
        ("must be an integer 1–1000", 3),
        ("unknown key", 5),
    ]
    assert found[1][2] == 21


async def test_load_reads_a_real_file(tmp_path: Path) -> None:
    path = tmp_path / "judge.yaml"
    path.write_text(JUDGE, encoding="utf-8")
    judge = await load_judge_config(path)
    assert judge.model == "judge-model"
    assert judge.source == os.fspath(path)


@pytest.mark.parametrize("what", ["missing", "directory"])
async def test_load_of_what_is_not_a_file_is_a_file_access_error(
    tmp_path: Path, what: str
) -> None:
    path: Any = tmp_path / "judge.yaml"
    if what == "directory":
        path.mkdir()
    with pytest.raises(FileAccessError) as caught:
        await load_judge_config(path)
    assert caught.value.exit_code == 1
