from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.telemetry._receiver import receiving

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tests.telemetry._receiver import Receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from receiving()
