"""The finished runs' lines of suite.json, kept on disk by position (SPEC 19)."""

from __future__ import annotations

import resource
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from artemiskit import FileAccessError
from artemiskit.suites._run_spool import RunPlaces, RunSpool


def test_lines_read_back_by_position_whatever_order_they_were_added(
    tmp_path: Path,
) -> None:
    spool = RunSpool(tmp_path, 4)
    spool.add(2, b"third\n")
    spool.add(0, b"first\n")
    spool.add(3, b"fourth line\n")
    with spool.reading() as lines:
        assert [bytes(b) for b in lines(0, 4)] == [
            b"first\n",
            b"third\n",
            b"fourth line\n",
        ]
        assert [bytes(b) for b in lines(1, 3)] == [b"third\n"]
    spool.close()
    # The file has no name: nothing is left in the output folder.
    assert list(tmp_path.iterdir()) == []


def test_a_position_filed_twice_is_refused_and_keeps_its_line(tmp_path: Path) -> None:
    spool = RunSpool(tmp_path, 2)
    spool.add(1, b"kept\n")
    with pytest.raises(ValueError, match="run position 1 was filed twice"):
        spool.add(1, b"other\n")
    with spool.reading() as lines:
        assert [bytes(b) for b in lines(0, 2)] == [b"kept\n"]
    spool.close()


def test_a_folder_that_cannot_take_the_file_is_output_unwritable(
    tmp_path: Path,
) -> None:
    with pytest.raises(FileAccessError) as caught:
        RunSpool(tmp_path / "missing", 1)
    assert caught.value.reason == "output_unwritable"
    assert str(caught.value).startswith("cannot write into the output folder: ")


@pytest.fixture
def small_files() -> Iterator[int]:
    """Files of this process may not grow past the returned size (EFBIG)."""
    limit = 4096
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    before = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield limit
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, before)


def test_a_line_that_cannot_be_written_is_output_unwritable(
    tmp_path: Path, small_files: int
) -> None:
    spool = RunSpool(tmp_path, 2)
    with pytest.raises(FileAccessError) as caught:
        spool.add(0, b"x" * (64 * small_files))
    assert caught.value.reason == "output_unwritable"
    assert str(caught.value).startswith("cannot write suite.json's runs: ")
    spool.close()


def test_positions_follow_cases_then_targets_then_repetitions() -> None:
    places = RunPlaces(
        [("b", ("z", "a")), ("a", (None,))],
        {"b": ("t2", "t1"), "a": ("t1",)},
        repeat=2,
    )
    assert places.planned == 2 * 2 * 2 + 2
    assert (places.span(0), places.span(1)) == ((0, 8), (8, 10))
    assert [
        places.position("b", case, target, repetition)
        for case in ("a", "z")
        for target in ("t1", "t2")
        for repetition in (1, 2)
    ] == list(range(8))
    assert [places.position("a", None, "t1", r) for r in (1, 2)] == [8, 9]
    assert RunPlaces([], {}, repeat=1).planned == 0
