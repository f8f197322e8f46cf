"""Record and replay (SPEC 22): real-model runs as free, deterministic tests.

A run can keep every model exchange in a *cassette* (``record_cassette=``,
``akit workflow run --record-cassette F`` / ``--record-cassettes DIR``) and a later
run can be answered from it (``replay=``, ``--replay``), strictly (each request
checked against the recorded one) or leniently (by position), fully or up to a
fork point after which the live target answers. Tools and environments always
run for real. See docs/replay.md.
"""

from __future__ import annotations

import typing

from artemiskit._common import _exports

if typing.TYPE_CHECKING:
    __all__: list[str]

    from artemiskit.replay._cassette import (
        CASSETTE_SCHEMA as CASSETTE_SCHEMA,
        CASSETTE_SCHEMA_VERSION as CASSETTE_SCHEMA_VERSION,
        Cassette as Cassette,
        CassetteExchange as CassetteExchange,
        CassetteHeader as CassetteHeader,
        cassette_schema as cassette_schema,
        load_cassette as load_cassette,
    )
    from artemiskit.replay._targets import (
        ReplayMode as ReplayMode,
    )

_exports.export_lazily(globals())
