"""Byte formats of checkpoint files: framing, versions and sha256 checksums.

Pure functions over bytes; no file system access. Decoders raise `CheckpointError`
with ``corrupt_checkpoint``, ``unknown_checkpoint_version`` or
``checkpoint_too_large``, never anything else, and never quote the content.

Snapshot (``snapshot.ckpt``): one header line of canonical JSON, a newline, then
the payload::

    {"format":"artemiskit.checkpoint","generation":3,"length":N,"parent":…,
     "sha256":…,"version":2}
    <N bytes: the payload as canonical JSON>

The checksum covers the header's other fields and the exact payload bytes; it is
the snapshot's digest. A snapshot written while its parent's journal went on
(a compaction in the background) also names ``"covers":[ENTRIES,LENGTH]``: it
holds the first ENTRIES entries of the parent's journal, which end at byte
LENGTH; the entries after them still apply to it. The generation counts
snapshot commits; ``parent`` is the digest of the snapshot this one replaced, or
for the first a random value of the same form, so a checkpoint's snapshots form
one chain that no other checkpoint shares, even one with the same payloads.

Journal (``journal.ckpt``): an 84-byte file header (magic ``AKCKJRNL``, version,
generation, the digest of its snapshot, sha256 of those), then frames::

    "AKJE" | sequence u64 | length u32 | sha256(body) | 8 bytes of sha256(previous)
    <length bytes: the entry as canonical JSON>

A frame's header checks itself, so its length is trusted before the body is read:
end of file inside a frame is a torn final append, while a complete frame with a
wrong checksum or sequence (or any other damage) is corruption.

Artifact: magic ``AKCKARTF`` | version u32 | length u64 | sha256 | data.

The journal names its snapshot by digest, so a journal and a snapshot from two
different checkpoints are refused as ``corrupt_checkpoint`` even when their
generations agree. Version 1 files (journals without that binding) are refused as
``unknown_checkpoint_version``.
"""

from __future__ import annotations

import hashlib
import json
import struct
from typing import Any, TypeGuard

import attrs

from artemiskit._errors import CheckpointError

__all__ = [
    "ARTIFACT_OVERHEAD",
    "FRAME_OVERHEAD",
    "JOURNAL_HEADER_SIZE",
    "SNAPSHOT_FORMAT",
    "VERSION",
    "JournalScan",
    "Snapshot",
    "canonical_json",
    "decode_artifact",
    "decode_journal_header",
    "decode_snapshot",
    "encode_artifact",
    "encode_frame",
    "encode_journal",
    "encode_journal_header",
    "encode_snapshot",
    "scan_journal",
]

SNAPSHOT_FORMAT = "artemiskit.checkpoint"
VERSION = 2

_SNAPSHOT_HEADER_MAX = 1024
_JOURNAL_HEAD = struct.Struct(">8sIQ32s")
_JOURNAL_MAGIC = b"AKCKJRNL"
JOURNAL_HEADER_SIZE = _JOURNAL_HEAD.size + 32
_FRAME_HEAD = struct.Struct(">4sQI")
_FRAME_MAGIC = b"AKJE"
_FRAME_CHECK = 8
_FRAME_SIZE = _FRAME_HEAD.size + 32 + _FRAME_CHECK
FRAME_OVERHEAD = _FRAME_SIZE
_ARTIFACT_HEAD = struct.Struct(">8sIQ")
_ARTIFACT_MAGIC = b"AKCKARTF"
ARTIFACT_OVERHEAD = _ARTIFACT_HEAD.size + 32


def _corrupt(what: str) -> CheckpointError:
    return CheckpointError(f"{what}: corrupt checkpoint", reason="corrupt_checkpoint")


def _unknown_version(what: str) -> CheckpointError:
    return CheckpointError(
        f"{what}: written in another checkpoint format version (this ArtemisKit "
        f"reads version {VERSION})",
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
        digest: This snapshot's sha256 (hex), which its journal names.
        parent: The digest of the snapshot it replaced (random for the first).
        payload: The engine's JSON object.
        covers: For a snapshot written while its parent's journal went on: how
            many of that journal's entries it holds, and the journal's byte
            length after them. ``None``: it holds the whole parent journal.
    """

    generation: int
    digest: str
    parent: str
    payload: dict[str, Any]
    covers: tuple[int, int] | None = None


def _snapshot_header(
    generation: int, parent: str, payload: bytes, covers: tuple[int, int] | None
) -> dict[str, Any]:
    header = {"format": SNAPSHOT_FORMAT, "generation": generation}
    header |= {"length": len(payload), "parent": parent, "version": VERSION}
    if covers is not None:
        header["covers"] = list(covers)
    return header


def _snapshot_digest(
    generation: int, parent: str, payload: bytes, covers: tuple[int, int] | None
) -> str:
    signed = canonical_json(_snapshot_header(generation, parent, payload, covers))
    digest = hashlib.sha256(signed + b"\n")
    digest.update(payload)  # not joined: a snapshot payload may be megabytes
    return digest.hexdigest()


def _is_digest(value: object) -> TypeGuard[str]:
    return (
        isinstance(value, str)
        and len(value) == 64
        and all(c in "0123456789abcdef" for c in value)
    )


def encode_snapshot(
    payload: bytes,
    generation: int,
    *,
    parent: str,
    covers: tuple[int, int] | None = None,
) -> tuple[bytes, str]:
    """Frame canonical payload bytes as a snapshot file.

    Args:
        payload: The payload as canonical JSON.
        generation: The snapshot's generation (from 1).
        parent: The digest of the snapshot this one replaces; for the first, 64
            random hex digits.
        covers: See `Snapshot.covers`.

    Returns:
        The file's bytes and the snapshot's digest.
    """
    header = _snapshot_header(generation, parent, payload, covers)
    digest = _snapshot_digest(generation, parent, payload, covers)
    header["sha256"] = digest
    return canonical_json(header) + b"\n" + payload, digest


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
    generation, length, parent, digest = (
        header.get("generation"),
        header.get("length"),
        header.get("parent"),
        header.get("sha256"),
    )
    covers = _covers(header.get("covers"))
    if (
        set(header) - {"covers"}
        != {"format", "generation", "length", "parent", "sha256", "version"}
        or ("covers" in header and covers is None)
        or type(generation) is not int
        or generation < 1
        or type(length) is not int
        or not _is_digest(parent)
        or not isinstance(digest, str)
        or canonical_json(header) != data[:end]  # exactly as written
    ):
        raise _corrupt(what)
    payload = data[end + 1 :]
    if (
        len(payload) != length
        or _snapshot_digest(generation, parent, payload, covers) != digest
    ):
        raise _corrupt(what)
    return Snapshot(
        generation=generation,
        digest=digest,
        parent=parent,
        payload=_decode_object(payload, what),
        covers=covers,
    )


def _covers(value: object) -> tuple[int, int] | None:
    """A well-formed ``covers`` header field as a pair, else ``None``."""
    if not isinstance(value, list) or len(value) != 2:
        return None
    entries, length = value
    if type(entries) is not int or type(length) is not int or entries < 0:
        return None
    if length < JOURNAL_HEADER_SIZE:
        return None
    return entries, length


def encode_journal_header(generation: int, snapshot: str) -> bytes:
    """Return the header of an empty journal bound to a snapshot.

    Args:
        generation: The snapshot's generation.
        snapshot: The snapshot's digest (hex).
    """
    head = _JOURNAL_HEAD.pack(
        _JOURNAL_MAGIC, VERSION, generation, bytes.fromhex(snapshot)
    )
    return head + hashlib.sha256(head).digest()


def decode_journal_header(data: bytes) -> tuple[int, str]:
    """Verify a journal's file header.

    Returns:
        The generation and the digest (hex) of the snapshot it belongs to.

    Raises:
        CheckpointError: ``corrupt_checkpoint`` or ``unknown_checkpoint_version``.
    """
    what = "journal"
    if len(data) < 12:
        raise _corrupt(what)
    magic, version = data[:8], int.from_bytes(data[8:12], "big")
    if magic != _JOURNAL_MAGIC:
        raise _corrupt(what)
    if version != VERSION:
        raise _unknown_version(what)
    if len(data) < JOURNAL_HEADER_SIZE:
        raise _corrupt(what)
    head = data[: _JOURNAL_HEAD.size]
    if data[_JOURNAL_HEAD.size : JOURNAL_HEADER_SIZE] != hashlib.sha256(head).digest():
        raise _corrupt(what)
    _, _, generation, snapshot = _JOURNAL_HEAD.unpack(head)
    return int(generation), bytes(snapshot).hex()


def encode_frame(sequence: int, body: bytes) -> bytes:
    """Frame one entry's canonical JSON ``body`` as journal entry ``sequence``."""
    head = _FRAME_HEAD.pack(_FRAME_MAGIC, sequence, len(body))
    signed = head + hashlib.sha256(body).digest()
    return signed + hashlib.sha256(signed).digest()[:_FRAME_CHECK] + body


def encode_journal(generation: int, snapshot: str, bodies: list[bytes]) -> bytes:
    """A whole journal file bound to a snapshot, holding ``bodies`` in order."""
    frames = (encode_frame(number, body) for number, body in enumerate(bodies))
    return encode_journal_header(generation, snapshot) + b"".join(frames)


@attrs.frozen(kw_only=True)
class JournalScan:
    """The verified content of a journal file.

    Attributes:
        generation: The snapshot generation the journal belongs to.
        snapshot: The digest of the snapshot the journal belongs to.
        entries: Every complete entry, oldest first.
        clean_length: Byte length of the header plus the complete entries.
        torn_tail: Whether bytes of an incomplete final entry follow them.
        bodies: The entries' canonical JSON, as framed.
    """

    generation: int
    snapshot: str
    entries: tuple[dict[str, Any], ...]
    clean_length: int
    torn_tail: bool
    bodies: tuple[bytes, ...] = ()


def scan_journal(data: bytes, *, max_entry_bytes: int) -> JournalScan:
    """Verify every frame of a journal file.

    Raises:
        CheckpointError: ``corrupt_checkpoint``, ``unknown_checkpoint_version``, or
            ``checkpoint_too_large`` for an entry over ``max_entry_bytes``.
    """
    generation, snapshot = decode_journal_header(data)
    entries: list[dict[str, Any]] = []
    bodies: list[bytes] = []
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
        bodies.append(body)
        cursor += _FRAME_SIZE + length
    return JournalScan(
        generation=generation,
        snapshot=snapshot,
        entries=tuple(entries),
        clean_length=cursor,
        torn_tail=torn,
        bodies=tuple(bodies),
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
