"""Finished runs' lines of ``suite.json``, kept on disk rather than in the driver.

``suite.json`` lists every finished run, and it is rewritten whole (atomically)
as the suite goes. A driver that kept each run's line in memory would grow with
every finished run (SPEC 19: it must not). Each line is appended instead, once,
to an anonymous temporary file in the output folder (it has no name: nothing is
left behind, whatever ends the suite), and only its place is remembered, in
arrays sized once by the plan: a run's slot is its position in the file's order,
fixed before the first run starts. A rewrite then streams each workflow's lines
back in order from a read-only mapping of the file, without holding them.
"""

from __future__ import annotations

import itertools
import mmap
import tempfile
from array import array
from contextlib import contextmanager
from typing import TYPE_CHECKING

from artemiskit._errors import FileAccessError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence
    from pathlib import Path

__all__ = ["RunPlaces", "RunSpool"]


class RunSpool:
    """Each finished run's encoded line, on disk, by its position in the file.

    Args:
        folder: Where the anonymous file is made (the suite's output folder).
        positions: How many runs the suite plans (each one's position is below).

    Raises:
        FileAccessError: The file cannot be made (``output_unwritable``).
    """

    __slots__ = ("_end", "_file", "_finished", "_lengths", "_offsets")

    def __init__(self, folder: Path, positions: int) -> None:
        try:
            # Closed by close(): it lives as long as the suite.
            self._file = tempfile.TemporaryFile(  # noqa: SIM115
                dir=folder, prefix=".akit-runs-"
            )
        except OSError as exc:
            raise FileAccessError(
                f"cannot write into the output folder: {exc.strerror}",
                reason="output_unwritable",
            ) from exc
        self._offsets = array("q", bytes(8 * positions))
        self._lengths = array("q", bytes(8 * positions))
        #: 1 for each position whose run finished.
        self._finished = bytearray(positions)
        self._end = 0

    def add(self, position: int, line: bytes) -> None:
        """Keep the line of the run at ``position`` (each position once).

        Raises:
            ValueError: The position already has its run's line (a bug).
            FileAccessError: The line could not be written
                (``output_unwritable``).
        """
        if self._finished[position]:
            raise ValueError(f"run position {position} was filed twice")
        try:
            self._file.write(line)
        except OSError as exc:
            raise FileAccessError(
                f"cannot write suite.json's runs: {exc.strerror}",
                reason="output_unwritable",
            ) from exc
        self._offsets[position] = self._end
        self._lengths[position] = len(line)
        self._finished[position] = 1
        self._end += len(line)

    @contextmanager
    def reading(self) -> Iterator[Callable[[int, int], Iterator[bytes]]]:
        """A reader of the lines kept so far.

        ``lines(start, stop)`` yields the lines of the runs in positions
        ``start`` to ``stop - 1`` that finished, in order. No line may be added
        while the reader is open.
        """
        self._file.flush()
        if self._end == 0:
            yield _none
            return
        offsets, lengths = self._offsets, self._lengths
        with mmap.mmap(self._file.fileno(), self._end, access=mmap.ACCESS_READ) as view:

            def lines(start: int, stop: int) -> Iterator[bytes]:
                chosen = self._finished[start:stop]
                for position in itertools.compress(range(start, stop), chosen):
                    at = offsets[position]
                    yield view[at : at + lengths[position]]

            yield lines

    def close(self) -> None:
        """Drop the file (it has no name: closing it frees its space)."""
        self._file.close()


def _none(start: int, stop: int) -> Iterator[bytes]:
    del start, stop
    return iter(())


class RunPlaces:
    """Each planned run's position in ``suite.json``'s order (`RunSpool`'s slots).

    Workflows in suite order; within one, runs by case id, target id and
    repetition (`RunOutcome.key`), whichever order they finish in.

    Args:
        workflows: Each workflow's name and planned cases (``(None,)`` without
            cases), in suite order.
        targets_of: The ids of each workflow's targets.
        repeat: Runs per unit.
    """

    __slots__ = ("_places", "_repeat", "_spans")

    def __init__(
        self,
        workflows: Sequence[tuple[str, Sequence[str | None]]],
        targets_of: Mapping[str, Sequence[str]],
        repeat: int,
    ) -> None:
        self._repeat = repeat
        self._places: dict[str, tuple[int, dict[str | None, int], dict[str, int]]] = {}
        self._spans: list[tuple[int, int]] = []
        start = 0
        for name, cases in workflows:
            targets = targets_of.get(name, ())
            case_rank = {
                case: rank
                for rank, case in enumerate(sorted(cases, key=lambda c: c or ""))
            }
            target_rank = {target: rank for rank, target in enumerate(sorted(targets))}
            self._places[name] = (start, case_rank, target_rank)
            stop = start + len(cases) * len(targets) * repeat
            self._spans.append((start, stop))
            start = stop

    @property
    def planned(self) -> int:
        """How many positions there are (the runs planned)."""
        return self._spans[-1][1] if self._spans else 0

    def span(self, index: int) -> tuple[int, int]:
        """The positions of the runs of the workflow at ``index``."""
        return self._spans[index]

    def position(
        self, workflow: str, case: str | None, target: str, repetition: int
    ) -> int:
        """The position of one run."""
        start, case_rank, target_rank = self._places[workflow]
        unit = case_rank[case] * len(target_rank) + target_rank[target]
        return start + unit * self._repeat + repetition - 1
