"""Each damaged or foreign checkpoint file is refused with its reason and its words.

The byte-format decoders are pure functions: these tests hand them bytes built
by hand (well-framed but wrong in one respect) and check the exact refusal a
user sees, or that an edge of the format is still accepted.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Any

import pytest

from artemiskit._errors import CheckpointError
from artemiskit.checkpoints import _envelope as envelope

DIGEST = "ab" * 32
CORRUPT = "corrupt_checkpoint"
UNKNOWN = "unknown_checkpoint_version"
UNKNOWN_WORDS = (
    "written in another checkpoint format version (this ArtemisKit reads version 2)"
)


def refusal(decode: Any, data: bytes, **options: Any) -> tuple[str, str]:
    with pytest.raises(CheckpointError) as caught:
        decode(data, **options)
    return caught.value.reason, str(caught.value)


def snapshot_header(**fields: Any) -> bytes:
    header = {"format": envelope.SNAPSHOT_FORMAT, "version": 2, **fields}
    return envelope.canonical_json(header)


def journal_header(version: int, generation: int = 1) -> bytes:
    head = struct.pack(
        ">8sIQ32s", b"AKCKJRNL", version, generation, bytes.fromhex(DIGEST)
    )
    return head + hashlib.sha256(head).digest()


@pytest.mark.parametrize("parent", ["", "xyz", "X" * 64, "AB" * 32, "ab" * 31])
def test_a_snapshot_whose_parent_is_not_a_digest_is_corrupt(parent: str) -> None:
    # the checksum matches: only the parent's form is wrong
    data, _ = envelope.encode_snapshot(b"{}", 1, parent=parent)
    assert refusal(envelope.decode_snapshot, data) == (
        CORRUPT,
        "snapshot: corrupt checkpoint",
    )


@pytest.mark.parametrize("generation", [0, -1, "1", 1.0, True])
def test_a_snapshot_whose_generation_is_not_a_count_is_corrupt(
    generation: Any,
) -> None:
    data, _ = envelope.encode_snapshot(b"{}", generation, parent=DIGEST)
    assert refusal(envelope.decode_snapshot, data) == (
        CORRUPT,
        "snapshot: corrupt checkpoint",
    )


@pytest.mark.parametrize("length", [2.0, "2", None])
def test_a_snapshot_whose_length_is_not_an_integer_is_corrupt(length: Any) -> None:
    digest = envelope.decode_snapshot(
        envelope.encode_snapshot(b"{}", 1, parent=DIGEST)[0]
    ).digest
    header = snapshot_header(generation=1, length=length, parent=DIGEST, sha256=digest)
    assert refusal(envelope.decode_snapshot, header + b"\n{}") == (
        CORRUPT,
        "snapshot: corrupt checkpoint",
    )


def test_a_snapshot_header_longer_than_its_limit_is_corrupt() -> None:
    # a well-formed snapshot whose header line alone is over 1024 bytes
    data, _ = envelope.encode_snapshot(b"{}", 10**1100, parent=DIGEST)
    assert data.index(b"\n") > 1024
    assert refusal(envelope.decode_snapshot, data) == (
        CORRUPT,
        "snapshot: corrupt checkpoint",
    )


def test_the_first_line_of_a_snapshot_is_its_header() -> None:
    # a first line of another version, then more lines: the version decides
    data = snapshot_header() + b"\nnot json\n"
    assert refusal(envelope.decode_snapshot, snapshot_header(version=3) + b"\nx\n") == (
        UNKNOWN,
        f"snapshot: {UNKNOWN_WORDS}",
    )
    # an empty first line is no header, even when a header line follows it
    newer = b"\n" + snapshot_header(version=3) + b"\n{}"
    assert refusal(envelope.decode_snapshot, newer) == (
        CORRUPT,
        "snapshot: corrupt checkpoint",
    )
    assert refusal(envelope.decode_snapshot, data)[0] == CORRUPT


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(snapshot_header(format="other") + b"\n{}", id="format"),
        pytest.param(
            envelope.canonical_json(
                {"format": envelope.SNAPSHOT_FORMAT, "version": "2"}
            )
            + b"\n{}",
            id="version-not-an-integer",
        ),
        pytest.param(
            envelope.encode_snapshot(b"[]", 1, parent=DIGEST)[0], id="payload-a-list"
        ),
    ],
)
def test_snapshot_refusals_name_the_snapshot(data: bytes) -> None:
    assert refusal(envelope.decode_snapshot, data) == (
        CORRUPT,
        "snapshot: corrupt checkpoint",
    )


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(
            b"AKCKJRNL\x00\x00", (CORRUPT, "journal: corrupt checkpoint"), id="short"
        ),
        pytest.param(
            journal_header(3)[:12],
            (UNKNOWN, f"journal: {UNKNOWN_WORDS}"),
            id="12-bytes",
        ),
        pytest.param(
            journal_header(0x01000002),
            (UNKNOWN, f"journal: {UNKNOWN_WORDS}"),
            id="high-version-byte",
        ),
        pytest.param(
            journal_header(3), (UNKNOWN, f"journal: {UNKNOWN_WORDS}"), id="version-3"
        ),
        pytest.param(
            journal_header(2)[:40], (CORRUPT, "journal: corrupt checkpoint"), id="cut"
        ),
        pytest.param(
            journal_header(2)[:-1] + b"\x00",
            (CORRUPT, "journal: corrupt checkpoint"),
            id="checksum",
        ),
    ],
)
def test_journal_header_refusals(data: bytes, expected: tuple[str, str]) -> None:
    assert refusal(envelope.decode_journal_header, data) == expected
    assert refusal(envelope.scan_journal, data, max_entry_bytes=1024) == expected


def test_a_journal_header_reads_its_version_as_big_endian() -> None:
    assert envelope.decode_journal_header(journal_header(2, generation=7)) == (
        7,
        DIGEST,
    )


def test_a_complete_frame_with_an_empty_body_is_corrupt_not_torn() -> None:
    data = journal_header(2) + envelope.encode_frame(0, b"")
    assert refusal(envelope.scan_journal, data, max_entry_bytes=1024) == (
        CORRUPT,
        "journal entry 0: corrupt checkpoint",
    )


@pytest.mark.parametrize(
    ("frames", "expected"),
    [
        pytest.param(
            [(0, b"{}"), (5, b"{}")],
            (CORRUPT, "journal entry 1: corrupt checkpoint"),
            id="sequence",
        ),
        pytest.param(
            [(0, b"{}"), (1, b"[1]")],
            (CORRUPT, "journal entry 1: corrupt checkpoint"),
            id="not-an-object",
        ),
        pytest.param(
            [(0, b"{}"), (1, b'{"n":12345}')],
            ("checkpoint_too_large", "journal entry 1 is over the size limit"),
            id="too-large",
        ),
    ],
)
def test_journal_entry_refusals_name_the_entry(
    frames: list[tuple[int, bytes]], expected: tuple[str, str]
) -> None:
    data = journal_header(2) + b"".join(envelope.encode_frame(*f) for f in frames)
    assert refusal(envelope.scan_journal, data, max_entry_bytes=10) == expected


def test_an_entry_of_exactly_the_size_limit_is_read() -> None:
    body = b'{"n":1}'
    data = journal_header(2) + envelope.encode_frame(0, body)
    scan = envelope.scan_journal(data, max_entry_bytes=len(body))
    assert (scan.entries, scan.torn_tail) == (({"n": 1},), False)
