"""The exclusive local process claim on a checkpoint directory (Linux ``/proc``).

A claim file ``claim.lock`` names its owner: pid, process start time (field 22 of
``/proc/<pid>/stat``), boot id (``/proc/sys/kernel/random/boot_id``) and uid. It is
written whole to an exclusive temporary file and published with ``link()``, which
fails if a claim exists, so nobody ever reads a half-written claim. The owner also
holds an ``flock`` on it until release, as a second line of defence.

Finding an existing claim:

- owned (file or content) by another uid: ``foreign_owner``;
- its ``flock`` held, or same boot and the pid alive with the same start time:
  ``claimed_by_live_process``;
- not a regular file (a FIFO, ...): ``not_a_file``;
- unreadable, garbled, or a liveness that cannot be decided: ``claim_indeterminate``;
- another boot, a dead pid, or a pid reused by a process with another start time:
  the owner is dead, so the claim is reclaimed. The reclaimer holds the dead
  claim's ``flock`` and removes the file only if the name still points to the same
  file it checked, so two reclaimers cannot remove each other's fresh claims.

This protects one machine (one boot, one pid namespace); it is not a distributed
lock, and a copied checkpoint directory is outside it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import secrets
import stat

import attrs

from artemiskit._errors import CheckpointError, UnsupportedError
from artemiskit.checkpoints._envelope import canonical_json
from artemiskit.checkpoints._private_files import (
    FILE_MODE,
    TEMP_SUFFIX,
    create_exclusive,
    fsync_directory,
    not_a_file,
)

__all__ = [
    "CLAIM_NAME",
    "CLAIM_TEMP_PREFIX",
    "ProcessClaim",
    "ProcessIdentity",
    "acquire_claim",
    "current_identity",
    "decode_identity",
    "encode_identity",
]

CLAIM_NAME = "claim.lock"
CLAIM_TEMP_PREFIX = ".claim."
_CLAIM_FORMAT = "artemiskit.claim"
_CLAIM_MAX_BYTES = 4096
_ATTEMPTS = 8
_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK  # a FIFO never blocks


@attrs.frozen(kw_only=True)
class ProcessIdentity:
    """Who holds a claim.

    Attributes:
        pid: Process id.
        start_time: Start time in clock ticks since boot (``/proc`` field 22).
        boot_id: The kernel's boot id.
        uid: Effective user id.
    """

    pid: int
    start_time: int
    boot_id: str
    uid: int


def _boot_id() -> str:
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as file:
            return file.read().strip()
    except OSError as exc:
        raise UnsupportedError(
            "checkpoints need Linux /proc to identify the owning process",
            reason="unsupported_platform",
        ) from exc


def _start_time(pid: int) -> int | None:
    """Return the start time of a live ``pid``; ``None`` if it is gone or a zombie.

    Raises:
        CheckpointError: ``claim_indeterminate`` when ``/proc`` cannot tell.
    """
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            line = file.read()
    except (FileNotFoundError, ProcessLookupError):
        return None
    except OSError as exc:
        raise CheckpointError(
            "cannot tell whether the process holding the claim is alive",
            reason="claim_indeterminate",
        ) from exc
    fields = line[line.rfind(b")") + 2 :].split()  # fields 3… after "(comm)"
    try:
        state, start = fields[0], int(fields[22 - 3])
    except (IndexError, ValueError) as exc:
        raise CheckpointError(
            "cannot tell whether the process holding the claim is alive",
            reason="claim_indeterminate",
        ) from exc
    return None if state in (b"Z", b"X", b"x") else start


def current_identity() -> ProcessIdentity:
    """Return this process's identity.

    Raises:
        UnsupportedError: No Linux ``/proc`` (``unsupported_platform``).
    """
    pid = os.getpid()
    boot_id = _boot_id()
    start = _start_time(pid)
    if start is None:  # pragma: no cover - we are alive
        raise UnsupportedError("cannot read this process's start time")
    return ProcessIdentity(pid=pid, start_time=start, boot_id=boot_id, uid=os.geteuid())


def encode_identity(identity: ProcessIdentity) -> bytes:
    """Return the claim file content for ``identity``."""
    fields = attrs.asdict(identity) | {"format": _CLAIM_FORMAT, "version": 1}
    return canonical_json(fields) + b"\n"


def decode_identity(data: bytes) -> ProcessIdentity | None:
    """Parse claim file content; ``None`` if it is not a well-formed claim."""
    try:
        value = _loads(data)
    except ValueError:
        return None
    names = {"format", "version", "pid", "start_time", "boot_id", "uid"}
    if not isinstance(value, dict) or set(value) != names:
        return None
    if value["format"] != _CLAIM_FORMAT or value["version"] != 1:
        return None
    numbers = [value["pid"], value["start_time"], value["uid"]]
    if any(type(n) is not int or n < 0 for n in numbers):
        return None
    if not isinstance(value["boot_id"], str) or not value["boot_id"]:
        return None
    return ProcessIdentity(
        pid=value["pid"],
        start_time=value["start_time"],
        boot_id=value["boot_id"],
        uid=value["uid"],
    )


def _loads(data: bytes) -> object:
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, RecursionError) as exc:
        raise ValueError("not JSON") from exc


class ProcessClaim:
    """A held claim: the claim file's descriptor, locked with ``flock``."""

    def __init__(self, *, dir_fd: int, fd: int, where: str) -> None:
        self._dir_fd = dir_fd
        self._fd: int | None = fd
        self._where = where

    def release(self) -> None:
        """Remove the claim file if it is still ours, then unlock; idempotent."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            ours = os.fstat(fd)
            current = os.stat(CLAIM_NAME, dir_fd=self._dir_fd, follow_symlinks=False)
            if (current.st_dev, current.st_ino) == (ours.st_dev, ours.st_ino):
                os.unlink(CLAIM_NAME, dir_fd=self._dir_fd)
                fsync_directory(self._dir_fd, self._where)
        except FileNotFoundError:
            pass
        finally:
            os.close(fd)


def _refuse(reason: str, message: str) -> CheckpointError:
    return CheckpointError(message, reason=reason)


def _reclaim_if_dead(dir_fd: int, me: ProcessIdentity, where: str) -> None:
    """Remove an existing claim whose owner is dead; refuse any other claim."""
    try:
        fd = os.open(CLAIM_NAME, os.O_RDONLY | _NOFOLLOW, dir_fd=dir_fd)
    except FileNotFoundError:
        return  # released meanwhile: try again
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _refuse(
                "unsafe_link", f"the claim file in {where} is a symbolic link"
            ) from exc
        raise _refuse(
            "claim_indeterminate", f"the claim file in {where} cannot be opened"
        ) from exc
    try:
        checked = os.fstat(fd)
        if not stat.S_ISREG(checked.st_mode):
            raise not_a_file(CLAIM_NAME, where)
        if checked.st_uid != me.uid:
            raise _refuse(
                "foreign_owner",
                f"checkpoint directory {where} is claimed by another user",
            )
        if stat.S_IMODE(checked.st_mode) != FILE_MODE:
            raise _refuse(
                "unsafe_permissions",
                f"the claim file in {where} must have mode 0600",
            )
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _refuse(
                "claimed_by_live_process",
                f"checkpoint directory {where} is in use by another running process",
            ) from None
        owner = decode_identity(os.read(fd, _CLAIM_MAX_BYTES + 1))
        if owner is None:
            raise _refuse(
                "claim_indeterminate",
                f"the claim file in checkpoint directory {where} is unreadable; make "
                f"sure no process uses the checkpoint, then remove {CLAIM_NAME}",
            )
        if owner.uid != me.uid:
            raise _refuse(
                "foreign_owner",
                f"checkpoint directory {where} is claimed by another user",
            )
        if owner.boot_id == me.boot_id and _start_time(owner.pid) == owner.start_time:
            raise _refuse(
                "claimed_by_live_process",
                f"checkpoint directory {where} is in use by running process "
                f"{owner.pid}",
            )
        try:
            current = os.stat(CLAIM_NAME, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            return
        if (current.st_dev, current.st_ino) == (checked.st_dev, checked.st_ino):
            os.unlink(CLAIM_NAME, dir_fd=dir_fd)  # the dead owner's, still locked
            fsync_directory(dir_fd, where)
    finally:
        os.close(fd)


def _hold(dir_fd: int, temporary: str, where: str) -> ProcessClaim:
    """Lock the claim just published from ``temporary``."""
    try:
        fd = os.open(CLAIM_NAME, os.O_RDONLY | _NOFOLLOW, dir_fd=dir_fd)
    except OSError as exc:
        raise _refuse(
            "claim_indeterminate", f"the claim file in {where} vanished"
        ) from exc
    try:
        ours = os.stat(temporary, dir_fd=dir_fd, follow_symlinks=False)
        held = os.fstat(fd)
        if (ours.st_dev, ours.st_ino) != (held.st_dev, held.st_ino):
            raise _refuse(
                "claim_indeterminate", f"the claim file in {where} was replaced"
            )
        os.unlink(temporary, dir_fd=dir_fd)
        fcntl.flock(fd, fcntl.LOCK_EX)  # others hold it only while checking
        fsync_directory(dir_fd, where)
    except OSError as exc:
        os.close(fd)
        raise _refuse(
            "claim_indeterminate", f"the claim on {where} could not be locked"
        ) from exc
    except BaseException:
        os.close(fd)
        raise
    return ProcessClaim(dir_fd=dir_fd, fd=fd, where=where)


def acquire_claim(dir_fd: int, *, where: str) -> ProcessClaim:
    """Take the exclusive claim on a verified checkpoint directory.

    Raises:
        CheckpointError: ``claimed_by_live_process``, ``foreign_owner``,
            ``claim_indeterminate``, ``unsafe_link``, ``not_a_file`` or
            ``unsafe_permissions``.
        FileAccessError: The claim file could not be written.
        UnsupportedError: No Linux ``/proc``.
    """
    me = current_identity()
    temporary = f"{CLAIM_TEMP_PREFIX}{me.pid}.{secrets.token_hex(8)}{TEMP_SUFFIX}"
    create_exclusive(dir_fd, temporary, encode_identity(me), where=where)
    try:
        for _ in range(_ATTEMPTS):
            try:
                os.link(temporary, CLAIM_NAME, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            except FileExistsError:
                _reclaim_if_dead(dir_fd, me, where)
                continue
            return _hold(dir_fd, temporary, where)
        raise _refuse(
            "claim_indeterminate",
            f"the claim on checkpoint directory {where} kept changing; try again",
        )
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=dir_fd)
