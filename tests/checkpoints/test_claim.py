"""The process claim, with real processes: live, dead, rebooted, foreign, garbled."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from artemiskit.checkpoints import LocalCheckpointStore
from artemiskit.checkpoints._claim import (
    ProcessIdentity,
    current_identity,
    encode_identity,
)

from ._helpers import FOREIGN_UID, build, read_line, refusal, run, spawn


@pytest.fixture
def checkpoint(tmp_path: Path) -> Path:
    directory = tmp_path / "checkpoint"
    run(build, directory, {"state": "ready"}, [{"step": 1}])
    return directory


def write_claim(directory: Path, content: bytes, mode: int = 0o600) -> Path:
    path = directory / "claim.lock"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    os.write(fd, content)
    os.close(fd)
    os.chmod(path, mode)
    return path


def claim_of(**changes: object) -> bytes:
    fields = {
        "pid": os.getpid(),
        "start_time": current_identity().start_time,
        "boot_id": current_identity().boot_id,
        "uid": os.geteuid(),
    }
    return encode_identity(ProcessIdentity(**fields | changes))  # type: ignore[arg-type]


async def opened_then_closed(directory: Path) -> None:
    store = LocalCheckpointStore(directory)
    await store.open(mode="resume")
    assert (directory / "claim.lock").exists()
    assert (await store.load()).snapshot == {"state": "ready"}
    await store.close()
    assert not (directory / "claim.lock").exists()


async def refused_reason(directory: Path) -> str:
    exc = await refusal(LocalCheckpointStore(directory).open(mode="resume"))
    return exc.reason


def stop(child: subprocess.Popen[str]) -> int:
    assert child.stdin is not None
    child.stdin.close()
    return child.wait()


def go(child: subprocess.Popen[str]) -> None:
    assert read_line(child) == "ready"
    assert child.stdin is not None
    child.stdin.write("go\n")
    child.stdin.flush()


def test_two_processes_at_once_exactly_one_proceeds(checkpoint: Path) -> None:
    for _ in range(5):
        with (
            spawn("hold", str(checkpoint), "resume") as first,
            spawn("hold", str(checkpoint), "resume") as second,
        ):
            assert [read_line(first), read_line(second)] == ["ready", "ready"]
            for child in (first, second):
                assert child.stdin is not None
                child.stdin.write("go\n")
                child.stdin.flush()
            outcomes = sorted([read_line(first), read_line(second)])
            assert outcomes == ["opened", "refused claimed_by_live_process"]
            assert [stop(first), stop(second)] == [0, 0]
        assert not (checkpoint / "claim.lock").exists()


def test_claim_of_a_live_process_is_refused_in_process(checkpoint: Path) -> None:
    with spawn("hold", str(checkpoint), "resume") as child:
        go(child)
        assert read_line(child) == "opened"
        assert run(refused_reason, checkpoint) == "claimed_by_live_process"
        assert stop(child) == 0
    run(opened_then_closed, checkpoint)


def test_claim_of_a_process_killed_with_sigkill_is_reclaimed(checkpoint: Path) -> None:
    with spawn("hold", str(checkpoint), "resume") as child:
        go(child)
        assert read_line(child) == "opened"
        child.send_signal(signal.SIGKILL)
        assert child.wait() == -signal.SIGKILL
    left = json.loads((checkpoint / "claim.lock").read_bytes())
    assert left["pid"] == child.pid
    run(opened_then_closed, checkpoint)


def test_claim_naming_a_live_process_without_its_lock_is_refused(
    checkpoint: Path,
) -> None:
    """Identity alone (same boot, pid alive, same start time) means live."""
    sleeper = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    try:
        stat = Path(f"/proc/{sleeper.pid}/stat").read_bytes()
        start = int(stat[stat.rfind(b")") + 2 :].split()[19])
        write_claim(checkpoint, claim_of(pid=sleeper.pid, start_time=start))
        assert run(refused_reason, checkpoint) == "claimed_by_live_process"
    finally:
        assert sleeper.stdin is not None
        sleeper.stdin.close()
        sleeper.wait()
    run(opened_then_closed, checkpoint)  # now it is dead: reclaimed


def test_claim_from_another_boot_is_reclaimed(checkpoint: Path) -> None:
    write_claim(checkpoint, claim_of(boot_id="00000000-0000-0000-0000-000000000000"))
    run(opened_then_closed, checkpoint)


def test_claim_of_a_reused_pid_is_reclaimed(checkpoint: Path) -> None:
    write_claim(checkpoint, claim_of(start_time=current_identity().start_time + 1))
    run(opened_then_closed, checkpoint)


def test_claim_of_our_own_live_process_is_refused(checkpoint: Path) -> None:
    write_claim(checkpoint, claim_of())
    assert run(refused_reason, checkpoint) == "claimed_by_live_process"


def test_dead_claim_still_locked_is_refused(checkpoint: Path) -> None:
    """The flock is a second line of defence: a held lock means a live owner."""
    path = write_claim(checkpoint, claim_of(boot_id="another-boot"))
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert run(refused_reason, checkpoint) == "claimed_by_live_process"
    finally:
        os.close(fd)
    run(opened_then_closed, checkpoint)


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"garbage\x00\xff",
        b"{}",
        b'{"format": "artemiskit.claim", "version": 1}',
        claim_of().replace(b'"version":1', b'"version":7'),
        claim_of().replace(b'"pid":', b'"pid":-'),
    ],
    ids=["empty", "binary", "empty-object", "partial", "version", "negative-pid"],
)
def test_garbled_claim_is_indeterminate(checkpoint: Path, content: bytes) -> None:
    path = write_claim(checkpoint, content)
    assert run(refused_reason, checkpoint) == "claim_indeterminate"
    assert path.read_bytes() == content  # left for the operator


def test_claim_of_another_user_is_refused(checkpoint: Path) -> None:
    write_claim(checkpoint, claim_of(uid=FOREIGN_UID))
    assert run(refused_reason, checkpoint) == "foreign_owner"


def test_claim_file_of_another_user_is_refused(checkpoint: Path) -> None:
    path = write_claim(checkpoint, claim_of(boot_id="another-boot"))
    os.chown(path, FOREIGN_UID, -1)
    assert run(refused_reason, checkpoint) == "foreign_owner"


def test_unsafe_claim_files_are_refused(checkpoint: Path) -> None:
    path = write_claim(checkpoint, claim_of(boot_id="b"), mode=0o644)
    assert run(refused_reason, checkpoint) == "unsafe_permissions"
    path.unlink()
    target = checkpoint.with_name("elsewhere")
    target.write_bytes(claim_of(boot_id="b"))
    path.symlink_to(target)
    assert run(refused_reason, checkpoint) == "unsafe_link"


def test_recovery_guard_left_by_a_killed_process_is_refused(checkpoint: Path) -> None:
    with spawn("recover", str(checkpoint)) as child:
        assert read_line(child) == "recovering"
        child.send_signal(signal.SIGKILL)
        assert child.wait() == -signal.SIGKILL
    for mode in ("resume", "create"):
        store = LocalCheckpointStore(checkpoint)
        exc = run(refusal, store.open(mode=mode))
        assert exc.reason == "recovery_guard_present"
        assert str(checkpoint / "recovery.guard") in str(exc)
        assert "deliberately" in str(exc)
    assert not (checkpoint / "claim.lock").exists()  # the refusal released it
    (checkpoint / "recovery.guard").unlink()  # the operator's decision
    run(opened_then_closed, checkpoint)
