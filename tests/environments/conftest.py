"""Docker availability for the ``docker``-marked tests.

Without a reachable engine or the sandbox image, docker tests skip with the reason;
with ``CI=true`` they fail instead, because CI must run them
(``bash scripts/ci-docker.sh`` prepares both).
"""

from __future__ import annotations

import asyncio
import functools
import os

import aiodocker
import pytest

from ._docker import SANDBOX_IMAGE


async def _probe() -> str | None:
    try:
        async with aiodocker.Docker() as docker:
            await docker.version()
            try:
                await docker.images.inspect(SANDBOX_IMAGE)
            except aiodocker.DockerError:
                return (
                    f"sandbox image {SANDBOX_IMAGE!r} missing "
                    "(run `bash scripts/ci-docker.sh`)"
                )
    except (OSError, ValueError, aiodocker.DockerError) as exc:
        return f"no Docker engine ({exc}); run `bash scripts/ci-docker.sh`"
    return None


@functools.cache
def docker_problem() -> str | None:
    """Why docker tests cannot run here, or ``None``."""
    return asyncio.run(_probe())


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip (or, with CI=true, fail) docker tests when Docker is unavailable."""
    if item.get_closest_marker("docker") is None:
        return
    problem = docker_problem()
    if problem is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"docker tests must run in CI: {problem}", pytrace=False)
    pytest.skip(problem)
