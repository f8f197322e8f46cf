"""Deprecated: custom scorers moved to the top level (removed in the next release).

`Scorer`, `Score`, `ScoreStatus`, `Evidence`, `ToolCallEvidence`, `ScorerHandler`
and `ScorerSet` are exported by `artemiskit` (their code is the engine's,
``artemiskit/engine/_scorer.py``); ``scorer_set`` is internal: pass a list of
`Scorer` objects, or a `ScorerSet`. Each name below still resolves to the same
object, with a `DeprecationWarning` (docs/migrating.md).
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    def __getattr__(name: str) -> typing.Any:
        """The deprecated names (each warns on every access), for type checkers."""
        ...


_exports.export_lazily(
    globals(),
    deprecated={
        **_exports.retired(
            "artemiskit.scorers",
            {
                "artemiskit": (
                    "Evidence",
                    "Score",
                    "ScoreStatus",
                    "Scorer",
                    "ScorerHandler",
                    "ScorerSet",
                    "ToolCallEvidence",
                )
            },
        ),
        **_exports.retired(
            "artemiskit.scorers",
            {"artemiskit.engine._scorer_set": ("scorer_set",)},
            instead="pass a list of Scorer objects, or a ScorerSet",
        ),
    },
)
