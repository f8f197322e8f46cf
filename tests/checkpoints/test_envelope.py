"""Checkpoint byte formats round-trip, and damaged bytes raise only our errors."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

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
