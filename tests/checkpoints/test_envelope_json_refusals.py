"""A checkpoint file whose JSON is not a plain object of finite values is refused.

The frames and checksums are intact (built with the format's own encoders), so
only the JSON inside is wrong: the refusal names the file or the entry.
"""

from __future__ import annotations

import pytest

from artemiskit._errors import CheckpointError
from artemiskit.checkpoints import _envelope as envelope

DIGEST = "ab" * 32
NOT_FINITE = [b'{"x":NaN}', b'{"x":Infinity}', b'{"x":-Infinity}']


def refusal_of_snapshot(payload: bytes) -> tuple[str, str]:
    data, _ = envelope.encode_snapshot(payload, 1, parent=DIGEST)
    with pytest.raises(CheckpointError) as caught:
        envelope.decode_snapshot(data)
    return caught.value.reason, str(caught.value)


def refusal_of_journal(*bodies: bytes) -> tuple[str, str]:
    data = envelope.encode_journal_header(1, DIGEST) + b"".join(
        envelope.encode_frame(sequence, body) for sequence, body in enumerate(bodies)
    )
    with pytest.raises(CheckpointError) as caught:
        envelope.scan_journal(data, max_entry_bytes=1024)
    return caught.value.reason, str(caught.value)


@pytest.mark.parametrize("payload", NOT_FINITE)
def test_a_snapshot_payload_with_a_non_finite_number_is_corrupt(
    payload: bytes,
) -> None:
    assert refusal_of_snapshot(payload) == (
        "corrupt_checkpoint",
        "snapshot: corrupt checkpoint",
    )


@pytest.mark.parametrize("body", NOT_FINITE)
def test_a_journal_entry_with_a_non_finite_number_is_corrupt(body: bytes) -> None:
    assert refusal_of_journal(b'{"ok":1}', body) == (
        "corrupt_checkpoint",
        "journal entry 1: corrupt checkpoint",
    )


@pytest.mark.parametrize("body", [b"[]", b"1", b'"x"', b"null"])
def test_a_journal_entry_that_is_not_an_object_is_named_in_the_refusal(
    body: bytes,
) -> None:
    assert refusal_of_journal(body) == (
        "corrupt_checkpoint",
        "journal entry 0: corrupt checkpoint",
    )
