"""The ``akit`` click group; each command group lives in ``_commands``."""

from __future__ import annotations

import click

from artemiskit import __version__
from artemiskit_cli._commands.init import init
from artemiskit_cli._commands.run import run
from artemiskit_cli._commands.run_report import report
from artemiskit_cli._commands.runs import baseline, compare, history
from artemiskit_cli._commands.scenario import scenario
from artemiskit_cli._commands.validate import validate
from artemiskit_cli._commands.workflow import workflow

__all__ = ["cli", "main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="akit")
def cli() -> None:
    """Run LLM agent workflows under control and keep honest evidence."""


cli.add_command(scenario)
cli.add_command(workflow)
cli.add_command(validate)
cli.add_command(run)
cli.add_command(baseline)
cli.add_command(history)
cli.add_command(compare)
cli.add_command(init)
cli.add_command(report)


def main() -> None:
    """Entry point of the ``akit`` console script."""
    cli(prog_name="akit")
