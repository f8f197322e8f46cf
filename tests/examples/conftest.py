"""Docker gating for the sandbox examples: the same rule as the environment tests.

Docker-marked tests skip with the reason when no engine or image is available, and
fail instead with ``CI=true``; the logic lives in ``tests/environments/conftest.py``.
"""

from __future__ import annotations

from tests.environments.conftest import pytest_runtest_setup

__all__ = ["pytest_runtest_setup"]
