"""The processes executor's channel: whole messages over a socket pair, no blocking."""

from __future__ import annotations

import pickle
import socket
import struct

import anyio
import pytest

from artemiskit.suites._channel import Channel

pytestmark = pytest.mark.anyio

#: Far more than a socket pair holds: it goes out as the other end reads.
_LARGE = b"x" * (8 * 1024 * 1024)


async def test_messages_larger_than_the_socket_holds_arrive_whole_in_order() -> None:
    here, there = socket.socketpair()
    sender, receiver = Channel(here), Channel(there)
    got = []
    async with anyio.create_task_group() as group:

        async def send() -> None:
            sender.post(("first", _LARGE))
            sender.post(("second", 2))
            await sender.drain()
            await sender.send(("third", _LARGE[:10]))

        group.start_soon(send)
        for _ in range(3):
            got.append(await receiver.receive())
    assert got == [("first", _LARGE), ("second", 2), ("third", _LARGE[:10])]
    sender.close()
    receiver.close()


async def test_what_was_sent_before_the_end_is_read_then_end_of_file() -> None:
    here, there = socket.socketpair()
    sender, receiver = Channel(here), Channel(there)
    await sender.send(("started", "run-1"))
    # A message cut short by its sender's end never reads as one.
    here.send(struct.pack("!Q", 100) + b"partial")
    sender.close()
    assert await receiver.receive() == ("started", "run-1")
    with pytest.raises(EOFError):
        await receiver.receive()
    receiver.close()


async def test_a_message_that_cannot_be_pickled_queues_nothing() -> None:
    here, there = socket.socketpair()
    sender, receiver = Channel(here), Channel(there)
    with pytest.raises((pickle.PicklingError, TypeError, AttributeError)):
        sender.post(("run", lambda: None))
    await sender.send(("next", 1))
    assert await receiver.receive() == ("next", 1)
    sender.close()
    receiver.close()


async def test_sending_to_a_closed_end_fails_with_os_error() -> None:
    here, there = socket.socketpair()
    sender = Channel(here)
    there.close()
    with pytest.raises((BrokenPipeError, ConnectionResetError)):
        await sender.send(("run", _LARGE))
    sender.close()


def _refused() -> None:
    raise ModuleNotFoundError("not here")


class _Unrebuildable:
    def __reduce__(self) -> tuple[object, ...]:
        return (_refused, ())


async def test_a_message_that_cannot_be_rebuilt_is_dropped_and_the_next_follows() -> (
    None
):
    here, there = socket.socketpair()
    sender, receiver = Channel(here), Channel(there)
    await sender.send(("run", _Unrebuildable()))
    await sender.send(("next", 1))
    with pytest.raises(ModuleNotFoundError):
        await receiver.receive()
    assert await receiver.receive() == ("next", 1)
    sender.close()
    receiver.close()
