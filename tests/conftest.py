"""Shared test configuration: every async test runs on asyncio and on trio."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]


@pytest.fixture(params=["asyncio", "trio"])
def anyio_backend(request: pytest.FixtureRequest) -> str:
    """Run each anyio test on both backends; a missing trio fails loudly."""
    backend: str = request.param
    return backend
