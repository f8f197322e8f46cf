"""The exact words and reasons of the two refusals made before a checkpointed run.

Both come before anything runs: an environment that does not declare checkpoint
support given a checkpoint store, and ``pause_after_actions`` without a store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from artemiskit import (
    ArtemisKit,
    CheckpointOptions,
    SessionStateError,
    UnsupportedError,
    create_agent_workflow_session,
    load_agent_workflow,
)
from tests._builders import PASSING_SCRIPT, workflow_dict, write_workflow

from .test_bindings import RefusingTarget, UndeclaredFactory

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.anyio


async def test_an_undeclared_environment_is_refused_in_these_words(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path, workflow_dict(), PASSING_SCRIPT)
    with pytest.raises(UnsupportedError) as info:
        await ArtemisKit().run_workflow(
            workflow=path,
            target=RefusingTarget(),
            environment=UndeclaredFactory(),  # type: ignore[arg-type]
            checkpoint=CheckpointOptions(
                directory=tmp_path / "ckpt", configuration_id="custom-v1"
            ),
        )
    assert info.value.reason == "environment_not_checkpointable"
    assert str(info.value) == (
        "this environment does not declare checkpoint support, so it cannot "
        "be checkpointed"
    )


async def test_pause_after_actions_without_a_store_is_refused_in_these_words(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path, workflow_dict(), PASSING_SCRIPT)
    target = RefusingTarget()
    with pytest.raises(SessionStateError) as info:
        create_agent_workflow_session(
            workflow=await load_agent_workflow(path),
            target=target,
            pause_after_actions=1,
        )
    assert info.value.reason == "invalid_option"
    assert str(info.value) == "pause_after_actions needs a checkpoint store"
    assert target.calls == 0
