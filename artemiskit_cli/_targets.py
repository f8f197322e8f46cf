"""``--target ENTRY:MODEL`` and ``--agent MODULE:ATTR``: what a run is run on.

Both replace the workflow's own target (SPEC 19): a provider entry of the trusted
configuration with a model, or an agent of your own made by trusted host code.
With several, a suite runs every workflow on every one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from artemiskit_cli._render import printable

if TYPE_CHECKING:
    from artemiskit.targets import TargetChoice

__all__ = ["AGENT_OPTION", "TARGET_OPTION", "chosen_targets"]


def _parse_targets(
    context: click.Context, parameter: click.Parameter, value: tuple[str, ...]
) -> tuple[TargetChoice, ...]:
    del context, parameter
    if not value:
        return ()
    from artemiskit import WorkflowError
    from artemiskit.targets import parse_target

    try:
        return tuple(parse_target(item) for item in value)
    except WorkflowError as exc:  # the option's own shape (exit 2)
        raise click.BadParameter(printable(exc.message)) from None


def _import_agents(
    context: click.Context, parameter: click.Parameter, value: tuple[str, ...]
) -> tuple[TargetChoice, ...]:
    del context, parameter
    if not value:
        return ()
    from artemiskit import ArtemisError, import_host_attribute
    from artemiskit.targets import agent_choices

    chosen: list[TargetChoice] = []
    for spec in value:
        try:
            chosen += agent_choices(import_host_attribute(spec))
        except ArtemisError as exc:
            if exc.reason == "invalid_reference":  # not MODULE:ATTR (exit 2)
                raise click.BadParameter(printable(exc.message)) from None
            # Cannot be imported, or makes no AgentTarget (exit 1).
            message = (
                exc.message
                if exc.message.startswith(spec)
                else (f"{spec}: {exc.message}")
            )
            raise click.ClickException(printable(message)) from None
    return tuple(chosen)


def chosen_targets(
    targets: tuple[TargetChoice, ...], agents: tuple[TargetChoice, ...]
) -> tuple[TargetChoice, ...]:
    """The ``--target`` choices, then the ``--agent`` ones, each id once.

    Raises:
        click.BadParameter: A target id is given twice (exit 2).
    """
    from artemiskit import WorkflowError
    from artemiskit.targets import target_choices

    try:
        return target_choices([*targets, *agents])
    except WorkflowError as exc:
        raise click.BadParameter(
            printable(exc.message), param_hint="--target/--agent"
        ) from None


TARGET_OPTION = click.option(
    "--target",
    "targets",
    multiple=True,
    metavar="ENTRY:MODEL",
    callback=_parse_targets,
    help="Run on this provider entry of the trusted configuration and model "
    "instead of each workflow's own target (repeatable: with several, a suite "
    "runs every workflow on every target).",
)
AGENT_OPTION = click.option(
    "--agent",
    "agents",
    multiple=True,
    metavar="MODULE:ATTR",
    callback=_import_agents,
    help="Run on an agent of your own: a callable returning an "
    "artemiskit.AgentTarget, or a mapping of names to such callables (trusted "
    "host code; repeatable; named by the mapping key or the callable's "
    "__name__).",
)
