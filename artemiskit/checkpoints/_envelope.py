"""Byte formats of checkpoint files: framing, versions and sha256 checksums.

Pure functions over bytes; no file system access. Decoders raise `CheckpointError`
with ``corrupt_checkpoint``, ``unknown_checkpoint_version`` or
``checkpoint_too_large``, never anything else, and never quote the content.

Snapshot (``snapshot.ckpt``): one header line of canonical JSON, a newline, then
the payload::

    {"format":"artemiskit.checkpoint","generation":3,"length":N,"sha256":…,
     "version":1}
    <N bytes: the payload as canonical JSON>

The checksum covers the header's other fields and the exact payload bytes. The
generation counts snapshot commits and binds the journal to its snapshot.

Journal (``journal.ckpt``): a 52-byte file header (magic ``AKCKJRNL``, version,
generation, sha256 of those), then frames::

    "AKJE" | sequence u64 | length u32 | sha256(body) | 8 bytes of sha256(previous)
    <length bytes: the entry as canonical JSON>

A frame's header checks itself, so its length is trusted before the body is read:
end of file inside a frame is a torn final append, while a complete frame with a
wrong checksum or sequence (or any other damage) is corruption.

Artifact: magic ``AKCKARTF`` | version u32 | length u64 | sha256 | data.
"""

from __future__ import annotations

import hashlib
import json
import struct
from typing import Any

import attrs

from artemiskit._errors import CheckpointError

__all__ = [
    "ARTIFACT_OVERHEAD",
    "JOURNAL_HEADER_SIZE",
    "SNAPSHOT_FORMAT",
    "VERSION",
    "JournalScan",
    "Snapshot",
    "canonical_json",
    "decode_artifact",
    "decode_journal_generation",
    "decode_snapshot",
    "encode_artifact",
    "encode_frame",
    "encode_journal_header",
    "encode_snapshot",
    "scan_journal",
]

SNAPSHOT_FORMAT = "artemiskit.checkpoint"
VERSION = 1

_SNAPSHOT_HEADER_MAX = 1024
_JOURNAL_HEAD = struct.Struct(">8sIQ")
_JOURNAL_MAGIC = b"AKCKJRNL"
JOURNAL_HEADER_SIZE = _JOURNAL_HEAD.size + 32
_FRAME_HEAD = struct.Struct(">4sQI")
_FRAME_MAGIC = b"AKJE"
_FRAME_CHECK = 8
_FRAME_SIZE = _FRAME_HEAD.size + 32 + _FRAME_CHECK
_ARTIFACT_HEAD = struct.Struct(">8sIQ")
_ARTIFACT_MAGIC = b"AKCKARTF"
ARTIFACT_OVERHEAD = _ARTIFACT_HEAD.size + 32


def _corrupt(what: str) -> CheckpointError:
    return CheckpointError(f"{what}: corrupt checkpoint", reason="corrupt_checkpoint")


def _unknown_version(what: str) -> CheckpointError:
    return CheckpointError(
        f"{what}: written by an unknown checkpoint format version",
        reason="unknown_checkpoint_version",
    )


def canonical_json(value: Any) -> bytes:
    """Encode JSON data canonically (sorted keys, no spaces, ASCII only).

    Raises:
        TypeError: The value holds something JSON cannot represent.
        ValueError: The value holds NaN or an infinity.
    """
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    ).encode("ascii")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _decode_object(data: bytes, what: str) -> dict[str, Any]:
    try:
        value = json.loads(data.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _corrupt(what) from exc
    if not isinstance(value, dict):
        raise _corrupt(what)
    return value


@attrs.frozen(kw_only=True)
class Snapshot:
    """A decoded, verified snapshot.

    Attributes:
        generation: How many snapshots this checkpoint has committed (from 1).
        payload: The engine's JSON object.
    """

    generation: int
    payload: dict[str, Any]


def _snapshot_digest(generation: int, payload: bytes) -> str:
    signed = {"format": SNAPSHOT_FORMAT, "generation": generation}
    signed |= {"length": len(payload), "version": VERSION}
    return hashlib.sha256(canonical_json(signed) + b"\n" + payload).hexdigest()


def encode_snapshot(payload: bytes, generation: int) -> bytes:
    """Frame canonical payload bytes as a snapshot file."""
    header = {
        "format": SNAPSHOT_FORMAT,
        "generation": generation,
        "length": len(payload),
        "sha256": _snapshot_digest(generation, payload),
        "version": VERSION,
    }
    return canonical_json(header) + b"\n" + payload


def decode_snapshot(data: bytes) -> Snapshot:
    """Verify and decode a snapshot file.

    Raises:
        CheckpointError: ``corrupt_checkpoint`` or ``unknown_checkpoint_version``.
    """
    what = "snapshot"
    end = data.find(b"\n", 0, _SNAPSHOT_HEADER_MAX)
    if end < 0:
        raise _corrupt(what)
    header = _decode_object(data[:end], what)
    if header.get("format") != SNAPSHOT_FORMAT:
        raise _corrupt(what)
    version = header.get("version")
    if type(version) is not int:
        raise _corrupt(what)
    if version != VERSION:
        raise _unknown_version(what)
    generation, length, digest = (
        header.get("generation"),
        header.get("length"),
        header.get("sha256"),
    )
    if (
        set(header) != {"format", "generation", "length", "sha256", "version"}
        or type(generation) is not int
        or generation < 1
        or type(length) is not int
        or not isinstance(digest, str)
        or canonical_json(header) != data[:end]  # exactly as written
    ):
        raise _corrupt(what)
    payload = data[end + 1 :]
    if len(payload) != length or _snapshot_digest(generation, payload) != digest:
        raise _corrupt(what)
    return Snapshot(generation=generation, payload=_decode_object(payload, what))


def encode_journal_header(generation: int) -> bytes:
    """Return the file header of an empty journal bound to snapshot ``generation``."""
    head = _JOURNAL_HEAD.pack(_JOURNAL_MAGIC, VERSION, generation)
    return head + hashlib.sha256(head).digest()


def decode_journal_generation(data: bytes) -> int:
    """Verify a journal's file header and return the generation it belongs to.

    Raises:
        CheckpointError: ``corrupt_checkpoint`` or ``unknown_checkpoint_version``.
    """
    what = "journal"
    if len(data) < JOURNAL_HEADER_SIZE:
        raise _corrupt(what)
    head = data[: _JOURNAL_HEAD.size]
    magic, version, generation = _JOURNAL_HEAD.unpack(head)
    if magic != _JOURNAL_MAGIC:
        raise _corrupt(what)
    if version != VERSION:
        raise _unknown_version(what)
    if data[_JOURNAL_HEAD.size : JOURNAL_HEADER_SIZE] != hashlib.sha256(head).digest():
        raise _corrupt(what)
    return int(generation)


def encode_frame(sequence: int, body: bytes) -> bytes:
    """Frame one entry's canonical JSON ``body`` as journal entry ``sequence``."""
    head = _FRAME_HEAD.pack(_FRAME_MAGIC, sequence, len(body))
    signed = head + hashlib.sha256(body).digest()
    return signed + hashlib.sha256(signed).digest()[:_FRAME_CHECK] + body


@attrs.frozen(kw_only=True)
class JournalScan:
    """The verified content of a journal file.

    Attributes:
        generation: The snapshot generation the journal belongs to.
        entries: Every complete entry, oldest first.
        clean_length: Byte length of the header plus the complete entries.
        torn_tail: Whether bytes of an incomplete final entry follow them.
    """

    generation: int
    entries: tuple[dict[str, Any], ...]
    clean_length: int
    torn_tail: bool


def scan_journal(data: bytes, *, max_entry_bytes: int) -> JournalScan:
    """Verify every frame of a journal file.

    Raises:
        CheckpointError: ``corrupt_checkpoint``, ``unknown_checkpoint_version``, or
            ``checkpoint_too_large`` for an entry over ``max_entry_bytes``.
    """
    generation = decode_journal_generation(data)
    entries: list[dict[str, Any]] = []
    cursor = JOURNAL_HEADER_SIZE
    torn = False
    while cursor < len(data):
        remaining = len(data) - cursor
        signed = data[cursor : cursor + _FRAME_HEAD.size + 32]
        check = data[cursor + len(signed) : cursor + _FRAME_SIZE]
        if remaining < _FRAME_SIZE:
            torn = True  # a crash cut the final append short inside its header
            break
        if check != hashlib.sha256(signed).digest()[:_FRAME_CHECK]:
            raise _corrupt(f"journal entry {len(entries)}")
        magic, sequence, length = _FRAME_HEAD.unpack(signed[: _FRAME_HEAD.size])
        if magic != _FRAME_MAGIC or sequence != len(entries):
            raise _corrupt(f"journal entry {len(entries)}")
        if length > max_entry_bytes:
            raise CheckpointError(
                f"journal entry {len(entries)} is over the size limit",
                reason="checkpoint_too_large",
            )
        if remaining - _FRAME_SIZE < length:
            torn = True  # a crash cut the final append short inside its body
            break
        body = data[cursor + _FRAME_SIZE : cursor + _FRAME_SIZE + length]
        if hashlib.sha256(body).digest() != signed[_FRAME_HEAD.size :]:
            raise _corrupt(f"journal entry {len(entries)}")
        entries.append(_decode_object(body, f"journal entry {len(entries)}"))
        cursor += _FRAME_SIZE + length
    return JournalScan(
        generation=generation,
        entries=tuple(entries),
        clean_length=cursor,
        torn_tail=torn,
    )


def encode_artifact(data: bytes) -> bytes:
    """Frame artifact bytes with a version and a checksum."""
    head = _ARTIFACT_HEAD.pack(_ARTIFACT_MAGIC, VERSION, len(data))
    return head + hashlib.sha256(head + data).digest() + data


def decode_artifact(framed: bytes) -> bytes:
    """Verify a framed artifact and return its bytes.

    Raises:
        CheckpointError: ``corrupt_checkpoint`` or ``unknown_checkpoint_version``.
    """
    what = "artifact"
    size = _ARTIFACT_HEAD.size
    if len(framed) < size + 32:
        raise _corrupt(what)
    magic, version, length = _ARTIFACT_HEAD.unpack(framed[:size])
    if magic != _ARTIFACT_MAGIC:
        raise _corrupt(what)
    if version != VERSION:
        raise _unknown_version(what)
    data = framed[size + 32 :]
    if len(data) != length:
        raise _corrupt(what)
    if hashlib.sha256(framed[:size] + data).digest() != framed[size : size + 32]:
        raise _corrupt(what)
    return data
