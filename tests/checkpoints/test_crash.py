"""SIGKILL at a random point of a write loop leaves a whole, loadable checkpoint."""

from __future__ import annotations

import random
import signal
import subprocess
from pathlib import Path

import pytest

from ._child import entry_payload, snapshot_payload
from ._helpers import build, read_line, resume_and_load, run, spawn

ROUNDS = 12


def kill_after(child: subprocess.Popen[str], lines: int, word: str) -> int:
    """Let the child acknowledge ``lines`` writes, SIGKILL it, return its last one."""
    last = 0
    for _ in range(lines):
        verb, number = read_line(child).split()
        assert verb == word
        last = int(number)
    child.send_signal(signal.SIGKILL)
    assert child.wait() == -signal.SIGKILL
    assert child.stdout is not None
    for line in child.stdout.read().splitlines():  # acknowledged before the kill
        verb, number = line.split()
        last = int(number)
    return last


@pytest.mark.parametrize("seed", range(ROUNDS))
def test_sigkill_during_commit_loop_keeps_old_or_new_snapshot(
    tmp_path: Path, seed: int
) -> None:
    directory = tmp_path / "checkpoint"
    with spawn("commit-loop", str(directory)) as child:
        last = kill_after(child, random.Random(seed).randint(1, 40), "committed")
    loaded = run(resume_and_load, directory)
    n = loaded.snapshot["n"]
    assert n in (last, last + 1)
    assert loaded.snapshot == snapshot_payload(n)  # whole, never partial
    expected = [entry_payload(n, 1), entry_payload(n, 2)]
    if n == last:
        assert list(loaded.entries) == expected
        assert loaded.torn_tail is False
    else:
        assert list(loaded.entries) == expected[: len(loaded.entries)]
    assert not [p for p in directory.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("seed", range(ROUNDS))
def test_sigkill_during_append_loop_keeps_acknowledged_entries(
    tmp_path: Path, seed: int
) -> None:
    directory = tmp_path / "checkpoint"
    run(build, directory, {"state": "ready"})
    with spawn("append-loop", str(directory)) as child:
        last = kill_after(child, random.Random(seed).randint(1, 200), "appended")
    loaded = run(resume_and_load, directory)
    assert len(loaded.entries) in (last, last + 1)
    for number, entry in enumerate(loaded.entries, start=1):
        assert entry == {"n": number, "pad": "a" * (100 + number % 5000)}
    again = run(resume_and_load, directory)  # a torn tail was cut off for good
    assert (again.entries, again.torn_tail) == (loaded.entries, False)
