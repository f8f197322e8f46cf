"""The embeddings client reads a bounded answer, compressed or not.

A small gzip answer can decompress to gigabytes. The client counts decompressed
bytes as they arrive and stops past 16 MiB; the memory it allocates is measured
with ``tracemalloc`` (a bound on memory, not on time).
"""

from __future__ import annotations

import gzip
import json
import tracemalloc
import zlib

import pytest

from artemiskit import TargetError
from artemiskit.prompt_response._embeddings import OpenAIEmbeddings
from artemiskit.providers import ProviderConfig
from tests.providers._chat_server import ChatServer, Reply

BOMB_BYTES = 256 * 1024 * 1024


def _bomb() -> bytes:
    """A gzip body of 256 MiB of spaces (about 250 KB compressed)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    chunk = b" " * (1024 * 1024)
    parts = [packer.compress(chunk) for _ in range(BOMB_BYTES // len(chunk))]
    return b"".join([*parts, packer.flush()])


def _client(server: ChatServer) -> OpenAIEmbeddings:
    return OpenAIEmbeddings(
        ProviderConfig(name="local", type="openai", base_url=server.url)
    )


async def test_a_compression_bomb_is_refused_without_being_held() -> None:
    body = _bomb()
    assert len(body) < 2 * 1024 * 1024
    with ChatServer() as server:
        server.enqueue(Reply(body=body, headers=(("Content-Encoding", "gzip"),)))
        client = _client(server)
        tracemalloc.start()
        try:
            with pytest.raises(TargetError, match="larger than 16777216 bytes"):
                await client.embed("text", None)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
            await client.aclose()
    assert peak < 64 * 1024 * 1024, peak


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "identity"])
async def test_a_compressed_answer_within_the_bound_is_read(encoding: str) -> None:
    vector = {"data": [{"embedding": [0.5, 1, -2.0]}]}
    raw = json.dumps(vector).encode()
    body = {
        "gzip": lambda: gzip.compress(raw),
        "deflate": lambda: zlib.compress(raw),
        "identity": lambda: raw,
    }[encoding]()
    with ChatServer() as server:
        server.enqueue(Reply(body=body, headers=(("Content-Encoding", encoding),)))
        client = _client(server)
        try:
            assert await client.embed("text", "m") == [0.5, 1.0, -2.0]
        finally:
            await client.aclose()
        [request] = server.requests
    assert request.path.endswith("/embeddings")
    assert request.headers["accept-encoding"] == "gzip, deflate"


async def test_broken_or_unknown_compression_is_an_error() -> None:
    with ChatServer() as server:
        server.enqueue(
            Reply(body=b"not gzip at all", headers=(("Content-Encoding", "gzip"),)),
            Reply(body=b"{}", headers=(("Content-Encoding", "snappy"),)),
        )
        client = _client(server)
        try:
            with pytest.raises(TargetError, match="not validly compressed"):
                await client.embed("a", None)
            with pytest.raises(TargetError, match="unsupported encoding"):
                await client.embed("b", None)
        finally:
            await client.aclose()
