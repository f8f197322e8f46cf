"""Fixtures for the provider tests: a real Chat Completions server per test."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ._chat_server import ChatServer

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    """A started server on 127.0.0.1, stopped after the test."""
    with ChatServer() as server:
        yield server
