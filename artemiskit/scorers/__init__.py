"""Custom scorers (SPEC 20): Python code that decides a ``scorer:`` requirement.

A `Scorer` has a name, a version, a JSON Schema for the outcome's ``with:`` and an
async handler that gets read-only `Evidence` and returns a `Score`. Register scorers
like tools: ``ArtemisKit(scorers=[...])``,
``create_agent_workflow_session(..., scorers=[...])``, ``akit ... --scorers
MODULE:ATTR`` or the pytest plugin's ``--akit-scorers MODULE:ATTR``.
"""

from __future__ import annotations

from artemiskit.scorers._registry import ScorerSet, scorer_set
from artemiskit.scorers._scorer import (
    Evidence,
    Score,
    Scorer,
    ScorerHandler,
    ScoreStatus,
    ToolCallEvidence,
)

__all__ = [
    "Evidence",
    "Score",
    "ScoreStatus",
    "Scorer",
    "ScorerHandler",
    "ScorerSet",
    "ToolCallEvidence",
    "scorer_set",
]
