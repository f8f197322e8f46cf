"""Values no ``akit`` option takes: exit 2, a clear message, nothing written.

An empty string is no path: taken as given, ``--replay ""`` or ``--fixture-root ""``
silently meant the current folder. ``nan`` and ``inf`` are no numbers: ``nan``
passed every range check (``--max-drop nan`` then crashed). Every path and every
decimal option and argument of every command (found by walking the click command
tree, so a new one is covered the day it is added) refuses them before anything
runs.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import click
import pytest

from artemiskit_cli._main import COMMANDS
from tests._cli import akit

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


def _commands() -> Iterator[tuple[list[str], click.Command]]:
    """Every command and sub-command, with the words that name it."""
    pending = [([name], row.load()) for name, row in sorted(COMMANDS.items())]
    while pending:
        words, command = pending.pop(0)
        yield words, command
        if isinstance(command, click.Group):
            pending += [
                ([*words, name], sub) for name, sub in sorted(command.commands.items())
            ]


def _path_parameters(kind: type[Any] = click.Path) -> list[tuple[str, ...]]:
    """The command line giving each ``kind`` parameter an empty value, first."""
    lines: list[tuple[str, ...]] = []
    for words, command in _commands():
        for param in command.params:
            if not isinstance(param.type, kind):
                continue
            line = (
                *words,
                *(param.opts[:1] if isinstance(param, click.Option) else ()),
            )
            if (*line, "") not in lines:  # two arguments: the first is enough
                lines.append((*line, ""))
    return lines


def test_the_walk_finds_the_path_options_named_in_the_issue() -> None:
    lines = {line[:-1] for line in _path_parameters()}
    for expected in [
        ("workflow", "run", "--replay"),
        ("workflow", "run", "--output-dir"),
        ("workflow", "run", "--junit"),
        ("workflow", "run", "--markdown"),
        ("workflow", "run", "--checkpoint-dir"),
        ("workflow", "run", "--record-cassettes"),
        ("report", "--html"),
        ("report", "compare", "--json"),
        ("scenario", "validate"),
        ("run",),
        ("run", "--export-output"),
        ("validate",),
        ("baseline", "set"),
        ("compare",),
    ]:
        assert expected in lines


@pytest.mark.parametrize("line", _path_parameters(), ids=" ".join)
def test_an_empty_path_is_exit_2_and_changes_nothing(
    tmp_path: Path, line: tuple[str, ...]
) -> None:
    done = akit(*line, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "empty path" in done.stderr
    assert "Traceback" not in done.stderr
    assert os.listdir(tmp_path) == []


def _decimal_options() -> list[tuple[str, ...]]:
    """Each decimal option's command line, its value left out (last)."""
    return [line[:-1] for line in _path_parameters(click.FloatRange)]


def test_the_walk_finds_the_decimal_options() -> None:
    options = _decimal_options()
    for expected in [
        ("report", "compare", "--max-drop"),
        ("workflow", "run", "--min-pass-rate"),
        ("plan", "--detect"),
        ("run", "--threshold"),
    ]:
        assert expected in options


@pytest.mark.parametrize("line", _decimal_options(), ids=" ".join)
@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_a_number_that_is_not_finite_is_exit_2(
    tmp_path: Path, line: tuple[str, ...], value: str
) -> None:
    done = akit(*line, value, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "not a finite number" in done.stderr or "not in the range" in done.stderr
    assert "Traceback" not in done.stderr
    assert os.listdir(tmp_path) == []
