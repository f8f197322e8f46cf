"""The CLI's exit mapping, in process: each SDK error family ends a command with its
SPEC 9 code and a one-line message (problems first), never a traceback.

The other CLI tests run `akit` as a child process; these call the mapping itself so
that mutation testing (which cannot reach a child process) checks it too.
"""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from artemiskit import (
    ArtemisError,
    CheckpointError,
    ConfigError,
    FileAccessError,
    InvalidResponseError,
    Problem,
    SessionStateError,
    UnsupportedError,
    WorkflowError,
)
from artemiskit_cli._errors import fail, reports_errors


def _command(error: BaseException) -> click.Command:
    @click.command()
    @reports_errors
    def command() -> None:
        raise error

    return command


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (WorkflowError("bad workflow"), 2),
        (ConfigError("bad config"), 1),
        (FileAccessError("no file"), 1),
        (UnsupportedError("no engine", reason="sandbox_engine_unreachable"), 3),
        (InvalidResponseError("malformed"), 2),
        (SessionStateError("ran", reason="already_run"), 2),
        (ArtemisError("broke"), 7),
    ],
)
def test_each_error_family_exits_with_its_code_and_one_message(
    error: ArtemisError, code: int
) -> None:
    done = CliRunner().invoke(_command(error))
    assert done.exit_code == code
    assert done.stderr == f"error: {error.message}\n"
    assert done.stdout == ""


def test_problems_are_printed_one_per_line_before_the_message() -> None:
    problems = [
        Problem(message="is required", source="w.yaml", line=3, column=5, path="$.a"),
        Problem(message="is unknown", source="w.yaml", path="$.b"),
    ]
    done = CliRunner().invoke(_command(WorkflowError("invalid workflow", problems)))
    assert done.exit_code == 2
    assert done.stderr.splitlines() == [
        "w.yaml:3:5: $.a: is required",
        "w.yaml: $.b: is unknown",
        "error: invalid workflow",
    ]


def test_a_config_error_lists_its_problems_too() -> None:
    problem = Problem(message="must be a string", source="c.yaml", line=1, column=2)
    done = CliRunner().invoke(_command(ConfigError("bad config", [problem])))
    assert done.exit_code == 1
    assert done.stderr.splitlines()[0] == "c.yaml:1:2: $: must be a string"


def test_a_checkpoint_error_adds_its_reason_line() -> None:
    error = CheckpointError("refused", reason="binding_mismatch")
    done = CliRunner().invoke(_command(error))
    assert done.exit_code == 2
    assert done.stderr.splitlines() == [
        "error: refused",
        "reason: binding_mismatch",
    ]


def test_other_errors_print_no_reason_line() -> None:
    done = CliRunner().invoke(_command(UnsupportedError("no engine", reason="x")))
    assert "reason:" not in done.stderr


def test_an_error_outside_the_families_is_not_swallowed() -> None:
    done = CliRunner().invoke(_command(KeyError("k")))
    assert isinstance(done.exception, KeyError)


def test_a_command_that_succeeds_returns_its_value() -> None:
    @reports_errors
    def answer() -> int:
        return 42

    assert answer() == 42


def test_fail_prints_the_message_and_exits_with_the_code() -> None:
    @click.command()
    def command() -> None:
        fail("cannot do that", 9)

    done = CliRunner().invoke(command)
    assert (done.exit_code, done.stderr) == (9, "error: cannot do that\n")
