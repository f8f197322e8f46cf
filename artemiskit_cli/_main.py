"""The ``akit`` click group; each command group lives in ``_commands``.

Commands load lazily: ``akit --help`` imports no command module, and ``akit
scenario validate`` imports only ``_commands/scenario.py`` (so no engine, HTTP,
Docker or report library). To add a command, add one row to `COMMANDS`; its short
help is shown by ``akit --help`` without importing the module
(tests/cli/test_cold_imports.py checks that it matches the command's own).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from artemiskit import __version__

__all__ = ["COMMANDS", "LazyCommand", "cli", "main"]


class LazyCommand:
    """One row of `COMMANDS`: where a command lives and its one-line help.

    Args:
        target: ``MODULE:ATTRIBUTE`` of the click command.
        short_help: The line ``akit --help`` shows for it.
    """

    def __init__(self, target: str, short_help: str) -> None:
        self.target = target
        self.short_help = short_help

    def load(self) -> click.Command:
        """Import the command's module and return the command."""
        module, _, attribute = self.target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.target} is not a click command")
        return command


#: Every ``akit`` command, by name.
COMMANDS: dict[str, LazyCommand] = {
    "scenario": LazyCommand(
        "artemiskit_cli._commands.scenario:scenario", "Check workflow files offline."
    ),
    "workflow": LazyCommand(
        "artemiskit_cli._commands.workflow:workflow",
        "Run workflows against a target and keep metadata-only evidence.",
    ),
    "report": LazyCommand(
        "artemiskit_cli._commands.report:report",
        "Render saved evidence: a suite folder, a suite.json or record files.",
    ),
    "run": LazyCommand(
        "artemiskit_cli._commands.run:run",
        "Run prompt-response scenario files (files, folders or globs).",
    ),
    "validate": LazyCommand(
        "artemiskit_cli._commands.validate:validate",
        "Check prompt-response scenario files (files, folders or globs), offline.",
    ),
    "baseline": LazyCommand(
        "artemiskit_cli._commands.runs:baseline",
        "Set, list, show and remove scenario baselines (one per scenario name).",
    ),
    "compare": LazyCommand(
        "artemiskit_cli._commands.runs:compare",
        "Compare two runs (ids or manifest files); exit 1 when CURRENT regressed.",
    ),
    "history": LazyCommand(
        "artemiskit_cli._commands.runs:history",
        "List stored runs, newest first.",
    ),
    "plan": LazyCommand(
        "artemiskit_cli._commands.plan:plan",
        "How many runs per side a comparison needs to detect a given drop.",
    ),
    "mcp": LazyCommand(
        "artemiskit_cli._commands.mcp:mcp",
        "List the tools of the MCP servers of the trusted configuration.",
    ),
    "init": LazyCommand(
        "artemiskit_cli._commands.init:init",
        "Create a starter config, one scenario and one workflow here.",
    ),
}


class _LazyGroup(click.Group):
    """A group whose `COMMANDS` are imported only when one is run.

    A `KeyboardInterrupt` that reaches it (Ctrl-C outside a run, which receives
    signals itself, or host code that raised it while loaded) is exit 130 with
    one line, as SPEC 9 says for anything cancelled; never click's "Aborted!"
    with exit 1, never the exception's text.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            from artemiskit import ExitCode  # not for `akit --help`

            click.echo("interrupted", err=True)
            sys.exit(ExitCode.CANCELLED)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *super().list_commands(ctx)})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in COMMANDS:
            command = COMMANDS[cmd_name].load()
            self.add_command(command, cmd_name)
        return command

    def format_commands(
        self, ctx: click.Context, formatter: click.HelpFormatter
    ) -> None:
        rows = []
        for name in self.list_commands(ctx):
            loaded = self.commands.get(name)
            if loaded is not None:
                if loaded.hidden:
                    continue
                rows.append((name, loaded.get_short_help_str(formatter.width)))
            else:
                rows.append((name, COMMANDS[name].short_help))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="akit")
def cli() -> None:
    """Run LLM agent workflows under control and keep honest evidence."""


def main() -> None:
    """Entry point of the ``akit`` console script."""
    cli(prog_name="akit")
