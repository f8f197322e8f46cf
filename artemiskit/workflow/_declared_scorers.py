"""The scorers a workflow may name, as the contract reads them: by name.

The loaders and validation take a `DeclaredScorers`: registered scorers with no
two of the same name, of which the contract reads only the name, the version
and the ``with:`` validator. The engine's ``ScorerSet`` is the same mapping
holding runnable scorers (with their handlers); the contract never needs a
handler, so it never imports one (as with tools and `DeclaredTools`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from artemiskit._common._digests import json_digest
from artemiskit._errors import ScorerDefinitionError

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["DeclaredScorer", "DeclaredScorers", "declared_scorers"]


class DeclaredScorer(Protocol):
    """What the contract reads of a registered scorer (a ``Scorer``)."""

    @property
    def name(self) -> str:
        """What ``scorer:`` outcomes name."""

    @property
    def version(self) -> str:
        """The scorer's version, bound in checkpoints and recorded."""

    @property
    def params_validator(self) -> Callable[[Any], Any]:
        """A fastjsonschema validator of the scorer's ``params_schema``."""


_S = TypeVar("_S", bound=DeclaredScorer, covariant=True)

#: What a declared scorer offers the contract.
_DECLARED = ("name", "version", "params_validator")


class DeclaredScorers(Mapping[str, _S]):
    """Registered scorers by name, in registration order; compared by identity.

    Args:
        scorers: The scorers, each with a name no other has.

    Raises:
        ScorerDefinitionError: An entry is not a scorer, or two share a name.
    """

    def __init__(self, scorers: Iterable[_S]) -> None:
        self._scorers: dict[str, _S] = {}
        for scorer in scorers:
            self._admit(scorer)

    def _admit(self, scorer: object) -> None:
        if not all(hasattr(scorer, part) for part in _DECLARED):
            raise ScorerDefinitionError(
                f"not a Scorer: {type(scorer).__name__}", reason="invalid_scorer"
            )
        declared = cast("_S", scorer)
        if declared.name in self._scorers:
            raise ScorerDefinitionError(
                f"scorer {declared.name!r} is registered twice",
                reason="scorer_name_clash",
            )
        self._scorers[declared.name] = declared

    # An identity, like a tool catalogue: validated workflows are cached by it.
    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other

    def __getitem__(self, name: str) -> _S:
        return self._scorers[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._scorers)

    def __len__(self) -> int:
        return len(self._scorers)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self._scorers)} scorers)"

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


def declared_scorers(
    scorers: Sequence[DeclaredScorer] | DeclaredScorers[DeclaredScorer],
) -> DeclaredScorers[DeclaredScorer]:
    """The registered scorers as a `DeclaredScorers` (a set already made as it is).

    Raises:
        ScorerDefinitionError: ``scorers`` is not a sequence of scorers, or two
            share a name.
    """
    if isinstance(scorers, DeclaredScorers):
        return scorers
    if isinstance(scorers, str | bytes | Mapping):
        raise ScorerDefinitionError(
            "scorers must be a sequence of Scorer objects", reason="invalid_scorer"
        )
    return DeclaredScorers(scorers)
