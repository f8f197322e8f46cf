"""The registered scorers of a run, by name (mirrors the tool catalogue).

A `ScorerSet` is the contract's `DeclaredScorers` holding runnable `Scorer`
objects: the loaders check ``scorer:`` outcomes against it, and the engine runs
the handlers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from artemiskit._errors import ScorerDefinitionError
from artemiskit.engine._scorer import Scorer
from artemiskit.workflow._declared_scorers import DeclaredScorers

__all__ = ["NO_SCORERS", "ScorerSet", "scorer_set"]


class ScorerSet(DeclaredScorers[Scorer]):
    """The scorers a run may use, by name.

    Raises:
        ScorerDefinitionError: An entry is not a `Scorer`, or two share a name.
    """

    def _admit(self, scorer: object) -> None:
        if not isinstance(scorer, Scorer):
            raise ScorerDefinitionError(
                f"not a Scorer: {type(scorer).__name__}", reason="invalid_scorer"
            )
        super()._admit(scorer)


NO_SCORERS = ScorerSet(())


def scorer_set(scorers: Sequence[Scorer] | ScorerSet | None) -> ScorerSet:
    """The registered scorers as a `ScorerSet` (empty for ``None``).

    Raises:
        ScorerDefinitionError: An entry is not a `Scorer`, or two share a name.
    """
    if isinstance(scorers, ScorerSet):
        return scorers
    if not scorers:
        return NO_SCORERS
    if isinstance(scorers, str | bytes | Mapping):
        raise ScorerDefinitionError(
            "scorers must be a sequence of Scorer objects", reason="invalid_scorer"
        )
    return ScorerSet(scorers)
