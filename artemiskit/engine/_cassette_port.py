"""What the engine asks of a run's cassettes (SPEC 22), without knowing them.

Recording and replaying (`engine._cassettes`, over `providers._replay`) wrap
the run's target and judge before the session is built. The driver only calls
these hooks at fixed points: before anything runs, after a resume, at the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from artemiskit.records._record import CassetteInfo, ReplayInfo

__all__ = ["CassettePort"]


class CassettePort(Protocol):
    """A run's cassettes as the driver sees them."""

    async def prepare(self) -> None:
        """Read and check the cassette to replay, before anything runs."""
        ...

    async def resumed(self, model_requests: int) -> None:
        """Continue a paused run's recorded cassette after its requests."""
        ...

    async def finish(self) -> tuple[bytes | None, CassetteInfo | None]:
        """Encode (and write where asked) the recorded cassette; its record part."""
        ...

    def replay_info(self) -> ReplayInfo | None:
        """The record's ``replay`` part, or ``None`` for a run not replayed."""
        ...
