"""``--tools MODULE:ATTR``: user-defined tools imported from trusted host code."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from artemiskit import Tool

__all__ = ["TOOLS_OPTION", "import_tools"]


def import_tools(spec: str) -> tuple[Tool, ...]:
    """Import the sequence of tools that ``MODULE:ATTR`` names.

    The current directory is searched first, like ``python -m``. Importing runs the
    module's code: pass only trusted host code.

    Raises:
        click.BadParameter: The reference is malformed, the module or attribute is
            missing, or the attribute is not a sequence of `Tool` objects (exit 2).
        click.ClickException: Making a tool was refused (a `ToolDefinitionError`
            is a configuration error, exit 1): its message, never a traceback.
    """
    from artemiskit import ArtemisError, Tool  # only when tools are given

    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise click.BadParameter("expected MODULE:ATTR, e.g. mytools:TOOLS")
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise click.BadParameter(
            f"cannot import module {module_name!r} ({type(exc).__name__})"
        ) from None
    except ArtemisError as exc:  # a tool the module makes was refused
        raise click.ClickException(f"{spec}: {exc.message}") from None
    value: Any = module
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise click.BadParameter(f"module {module_name!r} has no {attribute!r}")
        value = getattr(value, part)
    if isinstance(value, Tool):
        return (value,)
    if (
        not isinstance(value, Sequence)
        or isinstance(value, (str, bytes))
        or not all(isinstance(tool, Tool) for tool in value)
    ):
        raise click.BadParameter(f"{spec} is not a sequence of artemiskit.Tool objects")
    return tuple(value)


def _collect(
    context: click.Context, parameter: click.Parameter, value: tuple[str, ...]
) -> tuple[Tool, ...]:
    del context, parameter
    return tuple(tool for spec in value for tool in import_tools(spec))


TOOLS_OPTION = click.option(
    "--tools",
    "tools",
    multiple=True,
    metavar="MODULE:ATTR",
    callback=_collect,
    help="User-defined tools: an importable sequence of artemiskit.Tool "
    "(trusted host code; repeatable).",
)
