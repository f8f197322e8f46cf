"""``--tools``, ``--scorers MODULE:ATTR``: host objects imported from trusted code."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from artemiskit_cli._render import printable

if TYPE_CHECKING:
    from artemiskit import Scorer, Tool

__all__ = ["SCORERS_OPTION", "TOOLS_OPTION", "import_scorers", "import_tools"]


def _imported(spec: str, kind: type[Any]) -> tuple[Any, ...]:
    from artemiskit import ArtemisError, import_host_objects

    try:
        return import_host_objects(spec, kind)
    except ArtemisError as exc:
        if exc.reason == "invalid_reference":  # the reference itself (exit 2)
            raise click.BadParameter(printable(exc.message)) from None
        # the module made an object that was refused (exit 1)
        raise click.ClickException(printable(f"{spec}: {exc.message}")) from None


def import_tools(spec: str) -> tuple[Tool, ...]:
    """Import the tools that ``MODULE:ATTR`` names (the current directory first).

    Importing runs the module's code: pass only trusted host code.

    Raises:
        click.BadParameter: The reference is malformed, the module or attribute is
            missing, or the attribute is not a sequence of `Tool` objects (exit 2).
        click.ClickException: Making a tool was refused (a `ToolDefinitionError`
            is a configuration error, exit 1): its message, never a traceback.
    """
    from artemiskit import Tool  # only when tools are given

    return _imported(spec, Tool)


def import_scorers(spec: str) -> tuple[Scorer, ...]:
    """Import the scorers that ``MODULE:ATTR`` names (the current directory first).

    Raises:
        click.BadParameter: As `import_tools`, for `Scorer` objects (exit 2).
    """
    from artemiskit import Scorer

    return _imported(spec, Scorer)


def _collect_tools(
    context: click.Context, parameter: click.Parameter, value: tuple[str, ...]
) -> tuple[Tool, ...]:
    del context, parameter
    return tuple(tool for spec in value for tool in import_tools(spec))


def _collect_scorers(
    context: click.Context, parameter: click.Parameter, value: tuple[str, ...]
) -> tuple[Scorer, ...] | None:
    del context, parameter
    if not value:
        return None
    return tuple(scorer for spec in value for scorer in import_scorers(spec))


TOOLS_OPTION = click.option(
    "--tools",
    "tools",
    multiple=True,
    metavar="MODULE:ATTR",
    callback=_collect_tools,
    help="User-defined tools: an importable sequence of artemiskit.Tool "
    "(trusted host code; repeatable).",
)
SCORERS_OPTION = click.option(
    "--scorers",
    "scorers",
    multiple=True,
    metavar="MODULE:ATTR",
    callback=_collect_scorers,
    help="Custom scorers for `scorer` outcomes: an importable sequence of "
    "artemiskit.Scorer (trusted host code; repeatable).",
)
