"""Deprecated: record and replay moved (SPEC 22; removed in the next release).

The cassette types, their schema and `load_cassette` are in `artemiskit.records`;
`ReplayMode` is in `artemiskit.providers`, with the targets that record and
replay. Each name below still resolves to the same object, with a
`DeprecationWarning` (docs/migrating.md).
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
    deprecated=_exports.retired(
        "artemiskit.replay",
        {
            "artemiskit.records": (
                "CASSETTE_SCHEMA",
                "CASSETTE_SCHEMA_VERSION",
                "Cassette",
                "CassetteExchange",
                "CassetteHeader",
                "cassette_schema",
                "load_cassette",
            ),
            "artemiskit.providers": ("ReplayMode",),
        },
    ),
)
