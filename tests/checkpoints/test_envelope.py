"""Checkpoint byte formats round-trip, and damaged bytes raise only our errors."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from artemiskit._errors import CheckpointError
from artemiskit.checkpoints import _envelope as envelope

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
json_objects = st.dictionaries(st.text(max_size=8), json_values, max_size=5)


def same(left: Any, right: Any) -> bool:
    """Equality that also tells -0.0 from 0.0 (JSON keeps the sign)."""
    if isinstance(left, float) and isinstance(right, float):
        return left == right and math.copysign(1, left) == math.copysign(1, right)
    if isinstance(left, dict) and isinstance(right, dict):
        return left.keys() == right.keys() and all(
            same(left[k], right[k]) for k in left
        )
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(map(same, left, right))
    return type(left) is type(right) and left == right


DIGEST = "ab" * 32


@given(json_objects, st.integers(min_value=2, max_value=2**63 - 1))
def test_snapshot_round_trips(payload: dict[str, Any], generation: int) -> None:
    data, digest = envelope.encode_snapshot(
        envelope.canonical_json(payload), generation, parent=DIGEST
    )
    decoded = envelope.decode_snapshot(data)
    assert (decoded.generation, decoded.digest) == (generation, digest)
    assert decoded.parent == DIGEST
    assert same(decoded.payload, payload)


@given(st.lists(json_objects, max_size=6), st.integers(min_value=1, max_value=99))
def test_journal_round_trips(entries: list[dict[str, Any]], generation: int) -> None:
    data = envelope.encode_journal_header(generation, DIGEST) + b"".join(
        envelope.encode_frame(n, envelope.canonical_json(e))
        for n, e in enumerate(entries)
    )
    scan = envelope.scan_journal(data, max_entry_bytes=1 << 20)
    assert (scan.generation, scan.snapshot) == (generation, DIGEST)
    assert same(list(scan.entries), entries)
    assert (scan.clean_length, scan.torn_tail) == (len(data), False)


@given(st.binary(max_size=3000))
def test_artifact_round_trips(data: bytes) -> None:
    assert envelope.decode_artifact(envelope.encode_artifact(data)) == data


@settings(max_examples=300)
@given(st.data())
def test_damaged_bytes_raise_only_checkpoint_errors(data: st.DataObject) -> None:
    entries = [{"n": n, "text": "é" * n} for n in range(3)]
    files = {
        "snapshot": envelope.encode_snapshot(
            envelope.canonical_json(entries[2]), 4, parent=DIGEST
        )[0],
        "journal": envelope.encode_journal_header(4, DIGEST)
        + b"".join(
            envelope.encode_frame(n, envelope.canonical_json(e))
            for n, e in enumerate(entries)
        ),
        "artifact": envelope.encode_artifact(b"blob" * 10),
    }
    kind = data.draw(st.sampled_from(sorted(files)))
    original = bytearray(files[kind])
    damage = data.draw(st.sampled_from(["flip", "cut", "insert"]))
    at = data.draw(st.integers(min_value=0, max_value=len(original) - 1))
    if damage == "flip":
        original[at] ^= data.draw(st.integers(min_value=1, max_value=255))
    elif damage == "cut":
        del original[at:]
    else:
        original[at:at] = data.draw(st.binary(min_size=1, max_size=8))
    damaged = bytes(original)
    try:
        if kind == "snapshot":
            envelope.decode_snapshot(damaged)
        elif kind == "artifact":
            envelope.decode_artifact(damaged)
        else:
            scan = envelope.scan_journal(damaged, max_entry_bytes=1 << 20)
            # only a cut passes: a prefix of the entries (torn inside a frame);
            # a cut exactly between frames looks like fewer appends
            assert damage == "cut"
            assert list(scan.entries) == entries[: len(scan.entries)]
            return
    except CheckpointError as exc:
        reason = exc.reason
    else:
        raise AssertionError(f"damaged {kind} ({damage} at {at}) was accepted")
    assert reason in {"corrupt_checkpoint", "unknown_checkpoint_version"}


# Checkpoint files written by an earlier release of format version 2: a paused run
# must resume after an upgrade, so these exact bytes must keep decoding, and
# encoding must keep producing them (the digest covers every header field).
PARENT = "0123456789abcdef" * 4
SNAPSHOT_DIGEST = "c88682ccb8e1e1c761f93b522275d51f2e4e0b5368e37ce40bb57e36387e6ae9"
SNAPSHOT_FILE = (
    b'{"format":"artemiskit.checkpoint","generation":3,"length":20,"parent":"'
    + PARENT.encode()
    + b'","sha256":"'
    + SNAPSHOT_DIGEST.encode()
    + b'","version":2}\n{"k":"\\u00e9","n":1}'
)
JOURNAL_FILE = bytes.fromhex(
    "414b434b4a524e4c000000020000000000000003"
    + SNAPSHOT_DIGEST
    + "a8604e396611def4842a2047b80fd6a72484fdc3ccbe192955778b84cd9832ae"
    "414b4a4500000000000000000000000a8565a568653654ae5b4d4444245fa76e8bdea8c7d0db4a"
    "75bcffbb60bd6a0452e241719aa5576b857b2273746570223a317d"
    "414b4a4500000000000000010000000aaebcca5f2da4999140b08302faef160fb1ee0efe9badb8"
    "415b4cb57c1b9ce0df83f0269ff0be74fa7b2273746570223a327d"
)
ARTIFACT_FILE = bytes.fromhex(
    "414b434b415254460000000200000000000000054db6287be1b5780df6da97ac9f79d585e4e736"
    "3797947ddfa2b2bb3b23e3184566696c6573"
)


def test_version_2_snapshot_bytes_decode_and_encode_unchanged() -> None:
    decoded = envelope.decode_snapshot(SNAPSHOT_FILE)
    assert (decoded.generation, decoded.digest, decoded.parent) == (
        3,
        SNAPSHOT_DIGEST,
        PARENT,
    )
    assert decoded.payload == {"k": "é", "n": 1}
    payload = envelope.canonical_json({"n": 1, "k": "é"})
    assert envelope.encode_snapshot(payload, 3, parent=PARENT) == (
        SNAPSHOT_FILE,
        SNAPSHOT_DIGEST,
    )


def test_version_2_journal_and_artifact_bytes_decode_and_encode_unchanged() -> None:
    scan = envelope.scan_journal(JOURNAL_FILE, max_entry_bytes=64)
    assert (scan.generation, scan.snapshot) == (3, SNAPSHOT_DIGEST)
    assert scan.entries == ({"step": 1}, {"step": 2})
    assert (scan.clean_length, scan.torn_tail) == (len(JOURNAL_FILE), False)
    assert envelope.decode_journal_header(JOURNAL_FILE) == (3, SNAPSHOT_DIGEST)
    written = envelope.encode_journal_header(3, SNAPSHOT_DIGEST) + b"".join(
        envelope.encode_frame(n, envelope.canonical_json({"step": n + 1}))
        for n in range(2)
    )
    assert written == JOURNAL_FILE
    assert envelope.decode_artifact(ARTIFACT_FILE) == b"files"
    assert envelope.encode_artifact(b"files") == ARTIFACT_FILE


@pytest.mark.parametrize(
    "field", [("generation", 4), ("parent", "ab" * 32), ("length", 21)]
)
def test_a_header_field_edited_under_a_kept_digest_is_corrupt(
    field: tuple[str, Any],
) -> None:
    line, _, payload = SNAPSHOT_FILE.partition(b"\n")
    header = {**json.loads(line), field[0]: field[1]}
    edited = envelope.canonical_json(header) + b"\n" + payload
    with pytest.raises(CheckpointError) as caught:
        envelope.decode_snapshot(edited)
    assert (caught.value.reason, str(caught.value)) == (
        "corrupt_checkpoint",
        "snapshot: corrupt checkpoint",
    )
