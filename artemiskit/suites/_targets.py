"""A suite's target matrix (SPEC 19): which target each unit runs, and where.

With no target chosen, each workflow runs its own. With ``--target ENTRY:MODEL``
or agents of your own (``--agent``, ``run_suite(targets=...)``), the chosen
targets replace every workflow's own, and every workflow runs on every one of
them: each (workflow, target) is one unit. Everything is checked before any run
starts: an entry the trusted configuration lacks, or a chosen model without its
script (for the offline ``scripted`` provider), is exit 2.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import attrs

from artemiskit._errors import Problem, WorkflowError
from artemiskit.suites._discovery import SuiteWorkflow, workflow_script
from artemiskit.targets import TargetChoice
from artemiskit.targets._identity import unknown_entries
from artemiskit.workflow._retarget import with_target

if TYPE_CHECKING:
    from collections.abc import Sequence

    from artemiskit.providers._config import TrustedConfig

__all__ = [
    "SuiteTarget",
    "own_target",
    "plan_targets",
]


@attrs.frozen(kw_only=True, repr=False)
class SuiteTarget:
    """One workflow on one target: what the unit's runs execute.

    Attributes:
        item: The workflow as its runs execute it (on a chosen provider entry
            and model, its target section replaced; its contract digest kept).
        target: The target's id (``ENTRY:MODEL`` or the agent's name).
        choice: The chosen target, or ``None`` for the workflow's own.
    """

    item: SuiteWorkflow
    target: str
    choice: TargetChoice | None = None

    @property
    def name(self) -> str:
        """The workflow's name."""
        return self.item.name

    def __repr__(self) -> str:
        return f"SuiteTarget(workflow={self.item.name!r}, target={self.target!r})"


def own_target(item: SuiteWorkflow) -> str:
    """The id of a workflow's own target: ``PROVIDER:MODEL``."""
    return f"{item.workflow.target.provider}:{item.workflow.target.model}"


async def plan_targets(
    workflows: Sequence[SuiteWorkflow],
    choices: Sequence[TargetChoice],
    config: TrustedConfig,
) -> list[SuiteTarget]:
    """Every (workflow, target) of the suite, checked before anything runs.

    Without ``choices`` each workflow runs its own target. Otherwise each
    workflow runs on every chosen target, in the order given: on a provider
    entry, the workflow's target section is replaced (its parameters kept) and
    the chosen model's script, for a ``scripted`` entry, is read now.

    Raises:
        WorkflowError: An entry the configuration lacks (``unknown_target``,
            listing its entries), or a chosen model's script is missing or
            invalid (``invalid_suite``; every problem listed). Exit 2.
    """
    if not choices:
        return [SuiteTarget(item=item, target=own_target(item)) for item in workflows]
    unknown = unknown_entries(choices, config.providers, config.source)
    if unknown is not None:
        raise unknown
    planned: list[SuiteTarget] = []
    problems: list[Problem] = []
    for item in workflows:
        for choice in choices:
            if choice.kind != "provider":
                planned.append(SuiteTarget(item=item, target=choice.id, choice=choice))
                continue
            workflow = with_target(item.workflow, choice)
            root = item.path.absolute().parent
            try:
                script = await workflow_script(workflow, item.path, root, config)
            except WorkflowError as exc:
                problems += exc.problems or [
                    Problem(
                        message=f"target {choice.id!r}: {exc.message}",
                        source=os.fspath(item.path),
                    )
                ]
                continue
            chosen = attrs.evolve(item, workflow=workflow, script=script)
            planned.append(SuiteTarget(item=chosen, target=choice.id, choice=choice))
    if problems:
        raise WorkflowError(
            "the suite is invalid (a chosen target's script has problems); nothing ran",
            problems,
            reason="invalid_suite",
        )
    return planned
