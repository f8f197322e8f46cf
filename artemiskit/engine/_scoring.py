"""Running custom scorers (SPEC 20): bounded, isolated, metadata-only results.

Each ``scorer`` requirement runs its registered scorer's handler on a fresh
read-only copy of the run's evidence, within the scorer's ``timeout_ms``. A
handler that raises is ``scorer_failed``, one that runs out of time
``scorer_timeout``, one that returns anything but a `Score` ``invalid_score``: the
requirement is then unavailable and only the code is recorded, never the
exception's text. Cancellation of the run propagates.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

import anyio

from artemiskit.engine._run_evidence import scorer_evidence
from artemiskit.engine._scorer import Score, freeze
from artemiskit.records._verification import (
    RequirementResult,
    ScorerEntry,
    Verdict,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from artemiskit.engine._run_evidence import RunEvidence
    from artemiskit.engine._scorer import Scorer
    from artemiskit.workflow._model import ScorerOutcome

__all__ = ["run_scorers"]


async def _score(
    scorer: Scorer, outcome: ScorerOutcome, evidence: RunEvidence
) -> Score | str:
    """The scorer's `Score`, or the reason code of its failure."""
    outcome_params = freeze(copy.deepcopy(outcome.params))
    with anyio.move_on_after(scorer.timeout_ms / 1000) as scope:
        try:
            score = await scorer.handler(scorer_evidence(evidence), outcome_params)
        except anyio.get_cancelled_exc_class():
            raise
        except Exception:  # any failure of host code: only a code is kept
            return "scorer_failed"
    if scope.cancelled_caught:
        return "scorer_timeout"
    return score if isinstance(score, Score) else "invalid_score"


async def run_scorers(
    scorers: Mapping[str, Scorer],
    outcomes: Sequence[ScorerOutcome],
    *,
    evidence: RunEvidence,
) -> dict[str, RequirementResult]:
    """Decide every ``scorer`` requirement; results by outcome id."""
    results: dict[str, RequirementResult] = {}
    for outcome in outcomes:
        scorer = scorers.get(outcome.scorer)
        if scorer is None:
            results[outcome.id] = RequirementResult(
                id=outcome.id,
                kind="scorer",
                status="unavailable",
                reason="scorer_not_registered",
                scorer=ScorerEntry(name=outcome.scorer, version=None),
            )
            continue
        score = await _score(scorer, outcome, evidence)
        entry = ScorerEntry(
            name=scorer.name,
            version=scorer.version,
            value=None if isinstance(score, str) else score.value,
        )
        status: Verdict
        if isinstance(score, str):
            status, reason = "unavailable", score
        else:
            status, reason = score.status, score.reason
        results[outcome.id] = RequirementResult(
            id=outcome.id, kind="scorer", status=status, reason=reason, scorer=entry
        )
    return results
