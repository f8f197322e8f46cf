"""A hand-written test beside the workflow items: the `akit` fixture and
`assert_passed` (docs/pytest.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from artemiskit import ArtemisKit
from artemiskit_pytest import assert_passed

WORKFLOWS = Path(__file__).resolve().parents[1] / "workflows"


@pytest.fixture
def anyio_backend() -> str:
    """Run the async test once, on asyncio (anyio's pytest plugin)."""
    return "asyncio"


@pytest.mark.anyio
async def test_the_summary_passes_three_times(akit: ArtemisKit) -> None:
    suite = await akit.run_suite(
        paths=[WORKFLOWS / "refund-summary" / "workflow.yaml"], repeat=3
    )
    assert_passed(suite)
    assert suite.summary["totals"]["passed"] == 3
