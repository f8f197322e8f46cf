"""Custom scorers (SPEC 20): Python code that decides a ``scorer:`` requirement.

A `Scorer` has a name, a version, a JSON Schema for the outcome's ``with:`` and an
async handler that gets read-only `Evidence` and returns a `Score`. Register scorers
like tools: ``ArtemisKit(scorers=[...])``,
``create_agent_workflow_session(..., scorers=[...])``, ``akit ... --scorers
MODULE:ATTR`` or the pytest plugin's ``--akit-scorers MODULE:ATTR``.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit.scorers._registry import (
        ScorerSet as ScorerSet,
        scorer_set as scorer_set,
    )
    from artemiskit.scorers._scorer import (
        Evidence as Evidence,
        Score as Score,
        Scorer as Scorer,
        ScorerHandler as ScorerHandler,
        ScoreStatus as ScoreStatus,
        ToolCallEvidence as ToolCallEvidence,
    )

_exports.export_lazily(globals())
