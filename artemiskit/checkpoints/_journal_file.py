"""The journal file of an open local checkpoint: append-only, bound to a snapshot.

``journal.ckpt`` holds the entries appended since its snapshot, which its header
names by generation and digest (see `artemiskit.checkpoints._envelope` for the
bytes). An append writes one frame to the end of the file (``O_APPEND``) and syncs
it (``fdatasync``: the data and the new length), so its cost does not depend on how
many entries came before. A reset replaces
the file atomically with an empty journal for a new snapshot.

A compaction in the background marks a `cut`: the snapshot being written holds
the entries before it, and the entries appended after it are kept until `switch`
replaces the file with a journal of the new snapshot holding just those. A
snapshot renamed into place before that switch names the cut (``covers``), and
`recover` carries the entries after it over in the same way.

`Journal` remembers the length it verified or wrote; a file that no longer has that
length was changed by something else while the claim was held, which is refused.
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, Any

from artemiskit._errors import CheckpointError, FileAccessError
from artemiskit.checkpoints import _envelope as envelope
from artemiskit.checkpoints._private_files import (
    open_private_file,
    read_private_file,
    write_atomically,
)

if TYPE_CHECKING:
    from artemiskit.checkpoints._store import CheckpointLimits

__all__ = ["JOURNAL_NAME", "Journal"]

JOURNAL_NAME = "journal.ckpt"


def _sync_data(fd: int) -> None:
    """Make an append durable: its bytes and the file's new length, not its times.

    ``fdatasync`` (where the platform has it) does exactly that, without the
    inode time update ``fsync`` would also wait for.
    """
    sync = getattr(os, "fdatasync", None) or os.fsync
    sync(fd)


class Journal:
    """The journal of one open checkpoint directory.

    Args:
        dir_fd: The verified, claimed checkpoint directory.
        where: How messages name the directory.
        limits: Size bounds.
    """

    def __init__(self, dir_fd: int, *, where: str, limits: CheckpointLimits) -> None:
        self._dir_fd = dir_fd
        self._where = where
        self._limits = limits
        self._fd: int | None = None
        self.generation = 0
        self.snapshot = ""
        self.entry_count = 0
        self.size = 0
        self.torn_tail = False
        self._carried: list[bytes] | None = None

    def _changed(self) -> CheckpointError:
        return CheckpointError(
            f"the journal in {self._where} was changed by something else",
            reason="corrupt_checkpoint",
        )

    def _read(self) -> bytes | None:
        try:
            return read_private_file(
                self._dir_fd,
                JOURNAL_NAME,
                limit=self._limits.max_journal_bytes,
                where=self._where,
            )
        except FileNotFoundError:
            return None

    def recover(self, snapshot: envelope.Snapshot) -> None:
        """Adopt the journal of ``snapshot`` as found after a restart.

        A missing journal (only possible after the first snapshot) or the journal
        of the snapshot's parent (a crash between the snapshot's rename and the
        reset) holds nothing the snapshot lacks: it is replaced by an empty one.
        A torn final entry is cut off and remembered in `torn_tail`.

        Raises:
            CheckpointError: The journal is missing, corrupt, too large, of an
                unknown version, or belongs to another snapshot (of this
                checkpoint or of another one).
            FileAccessError: The journal could not be read or repaired.
        """
        generation = snapshot.generation
        data = self._read()
        if data is None and generation != 1:
            raise CheckpointError(
                f"the journal in {self._where} is missing", reason="corrupt_checkpoint"
            )
        if data is None or envelope.decode_journal_header(data) == (
            generation - 1,
            snapshot.parent,
        ):
            if data is None or snapshot.covers is None:
                self.reset(generation, snapshot.digest)
            else:
                self._carry_over(data, snapshot)
            return
        scan = envelope.scan_journal(data, max_entry_bytes=self._limits.max_entry_bytes)
        if (scan.generation, scan.snapshot) != (generation, snapshot.digest):
            raise CheckpointError(
                f"the journal in {self._where} belongs to another snapshot",
                reason="corrupt_checkpoint",
            )
        if scan.torn_tail:
            fd = open_private_file(
                self._dir_fd, JOURNAL_NAME, os.O_WRONLY, where=self._where
            )
            try:
                os.ftruncate(fd, scan.clean_length)
                os.fsync(fd)
            except OSError as exc:
                raise FileAccessError(
                    f"could not cut the torn journal entry in {self._where}: "
                    f"{exc.strerror}"
                ) from exc
            finally:
                os.close(fd)
        self.generation = generation
        self.snapshot = snapshot.digest
        self.entry_count = len(scan.entries)
        self.size = scan.clean_length
        self.torn_tail = scan.torn_tail

    def _carry_over(self, data: bytes, snapshot: envelope.Snapshot) -> None:
        """Replace the parent's journal with the entries ``snapshot`` lacks.

        A crash after a background compaction renamed its snapshot into place and
        before the journal was switched left the parent's journal, of which the
        snapshot holds the entries up to its cut.
        """
        assert snapshot.covers is not None
        count, length = snapshot.covers
        scan = envelope.scan_journal(data, max_entry_bytes=self._limits.max_entry_bytes)
        held = scan.bodies[:count]
        if len(held) != count or length != envelope.JOURNAL_HEADER_SIZE + sum(
            envelope.FRAME_OVERHEAD + len(body) for body in held
        ):
            raise CheckpointError(
                f"the journal in {self._where} lacks entries its snapshot holds",
                reason="corrupt_checkpoint",
            )
        self._carried = list(scan.bodies[count:])
        self.switch(snapshot.generation, snapshot.digest)
        self.torn_tail = scan.torn_tail

    def cut(self) -> tuple[int, int]:
        """Start keeping the entries appended from now on, for `switch`.

        Returns:
            The entries so far and the journal's length after them: what a
            snapshot of this point holds (its ``covers``).
        """
        self._carried = []
        return self.entry_count, self.size

    def drop_cut(self) -> None:
        """Forget a `cut` whose snapshot will not be used."""
        self._carried = None

    def switch(self, generation: int, snapshot: str) -> None:
        """Atomically replace the journal with one of a new snapshot taken at the cut.

        The new journal holds the entries appended since `cut`, renumbered.
        """
        assert self._carried is not None
        carried, self._carried = self._carried, None
        self.close()
        data = envelope.encode_journal(generation, snapshot, carried)
        write_atomically(self._dir_fd, JOURNAL_NAME, data, where=self._where)
        self.generation = generation
        self.snapshot = snapshot
        self.entry_count = len(carried)
        self.size = len(data)
        self.torn_tail = False

    def reset(self, generation: int, snapshot: str) -> None:
        """Atomically replace the journal with an empty one for a new snapshot.

        Args:
            generation: The snapshot's generation.
            snapshot: The snapshot's digest.
        """
        self.close()
        self._carried = None
        header = envelope.encode_journal_header(generation, snapshot)
        write_atomically(self._dir_fd, JOURNAL_NAME, header, where=self._where)
        self.generation = generation
        self.snapshot = snapshot
        self.entry_count = 0
        self.size = len(header)
        self.torn_tail = False

    def append(self, body: bytes, *, sync: bool = True) -> int:
        """Durably append one entry's canonical JSON; return the bytes added.

        With ``sync=False`` the entry is written to the file (it survives the
        death of this process) but not waited for on the disk: the next synced
        append makes it durable together with its own entry.

        Raises:
            CheckpointError: The entry or the journal would be too large
                (``checkpoint_too_large``), or the file was changed.
            FileAccessError: The write or fsync failed; the file is cut back to its
                previous length where possible, and the caller must stop writing.
        """
        if len(body) > self._limits.max_entry_bytes:
            raise CheckpointError(
                f"a journal entry for {self._where} is over its size limit",
                reason="checkpoint_too_large",
            )
        frame = envelope.encode_frame(self.entry_count, body)
        if self.size + len(frame) > self._limits.max_journal_bytes:
            raise CheckpointError(
                f"the journal in {self._where} is full; commit a snapshot to compact",
                reason="checkpoint_too_large",
            )
        if self._fd is None:
            self._fd = open_private_file(
                self._dir_fd, JOURNAL_NAME, os.O_WRONLY | os.O_APPEND, where=self._where
            )
        if os.fstat(self._fd).st_size != self.size:
            raise self._changed()
        try:
            view = memoryview(frame)
            while view:
                view = view[os.write(self._fd, view) :]
            if sync:
                _sync_data(self._fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self.size)
            raise FileAccessError(
                f"could not append to the journal in {self._where}: {exc.strerror}"
            ) from exc
        self.entry_count += 1
        self.size += len(frame)
        if self._carried is not None:
            self._carried.append(body)
        return len(frame)

    def entries(self) -> tuple[dict[str, Any], ...]:
        """Read and verify every entry; the file must be as this journal left it.

        Raises:
            CheckpointError: Unsafe, corrupt, too large, of an unknown version, or
                changed by something else.
            FileAccessError: The journal could not be read.
        """
        data = self._read()
        if data is None:
            raise self._changed()
        scan = envelope.scan_journal(data, max_entry_bytes=self._limits.max_entry_bytes)
        if (
            scan.generation != self.generation
            or scan.snapshot != self.snapshot
            or scan.clean_length != self.size
            or scan.torn_tail
        ):
            raise self._changed()
        return scan.entries

    def close(self) -> None:
        """Close the append descriptor, if open; idempotent."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)
