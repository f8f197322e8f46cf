"""The registered scorers of a run, by name (mirrors the tool catalogue)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from artemiskit._common._digests import json_digest
from artemiskit._errors import ScorerDefinitionError
from artemiskit.scorers._scorer import Scorer

__all__ = ["NO_SCORERS", "ScorerSet", "scorer_set"]


class ScorerSet(Mapping[str, Scorer]):
    """The scorers a run may use, by name.

    Raises:
        ScorerDefinitionError: An entry is not a `Scorer`, or two share a name.
    """

    def __init__(self, scorers: Iterable[Scorer]) -> None:
        self._scorers: dict[str, Scorer] = {}
        for scorer in scorers:
            if not isinstance(scorer, Scorer):
                raise ScorerDefinitionError(
                    f"not a Scorer: {type(scorer).__name__}", reason="invalid_scorer"
                )
            if scorer.name in self._scorers:
                raise ScorerDefinitionError(
                    f"scorer {scorer.name!r} is registered twice",
                    reason="scorer_name_clash",
                )
            self._scorers[scorer.name] = scorer

    # An identity, like a tool catalogue: validated workflows are cached by it.
    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other

    def __getitem__(self, name: str) -> Scorer:
        return self._scorers[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._scorers)

    def __len__(self) -> int:
        return len(self._scorers)

    def __repr__(self) -> str:
        return f"ScorerSet({len(self._scorers)} scorers)"

    def digest(self, names: Iterable[str]) -> str | None:
        """The digest of the named scorers' names and versions; ``None`` for none."""
        chosen = sorted(set(names))
        if not chosen:
            return None
        return json_digest(
            [
                {"name": n, "version": self._scorers[n].version}
                if n in self._scorers
                else {"name": n, "version": None}
                for n in chosen
            ]
        )


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
