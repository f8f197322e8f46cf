"""The one place where SDK errors become exit codes and stderr messages."""

from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import click

from artemiskit import ArtemisError, CheckpointError, ConfigError, WorkflowError
from artemiskit_cli._render import error_text, printable, problem_line

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["fail", "reports_errors"]

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: int) -> None:
    """Print ``message`` to stderr and exit with ``code``."""
    click.echo(f"error: {printable(message)}", err=True)
    sys.exit(code)


def _report(exc: ArtemisError) -> int:
    """Print ``exc`` as every command does; return its SPEC 9 exit code.

    A module-level function rather than part of the wrapper below, so that
    mutation testing (which leaves nested functions alone) reaches it.
    """
    if isinstance(exc, WorkflowError | ConfigError):
        for problem in exc.problems:
            click.echo(problem_line(problem), err=True)
        click.echo(f"error: {error_text(exc)}", err=True)
    else:
        click.echo(f"error: {error_text(exc)}", err=True)
        if isinstance(exc, CheckpointError):
            # The stable code operators look up in docs/checkpoints.md.
            click.echo(f"reason: {exc.reason}", err=True)
    return exc.exit_code


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn any `ArtemisError` escaping ``command`` into its SPEC 9 exit code.

    User errors never print a traceback: every listed problem goes to stderr as
    ``FILE:LINE:COL: KEY-PATH: rule``, then the message (each on one line, control
    characters of a file name shown as escapes), and the process exits with the
    error family's code.
    """

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except ArtemisError as exc:
            sys.exit(_report(exc))

    return wrapper
