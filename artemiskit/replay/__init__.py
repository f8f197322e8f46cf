"""Record and replay (SPEC 22): real-model runs as free, deterministic tests.

A run can keep every model exchange in a *cassette* (``record_cassette=``,
``akit workflow run --record-cassette F`` / ``--record-cassettes DIR``) and a later
run can be answered from it (``replay=``, ``--replay``), strictly (each request
checked against the recorded one) or leniently (by position), fully or up to a
fork point after which the live target answers. Tools and environments always
run for real. See docs/replay.md.
"""

from __future__ import annotations

from artemiskit.replay._cassette import (
    CASSETTE_SCHEMA,
    CASSETTE_SCHEMA_VERSION,
    Cassette,
    CassetteExchange,
    CassetteHeader,
    cassette_schema,
    load_cassette,
)
from artemiskit.replay._targets import ReplayMode

__all__ = [
    "CASSETTE_SCHEMA",
    "CASSETTE_SCHEMA_VERSION",
    "Cassette",
    "CassetteExchange",
    "CassetteHeader",
    "ReplayMode",
    "cassette_schema",
    "load_cassette",
]
