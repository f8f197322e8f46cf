"""``--state-output`` when the run kept no final snapshot (issue 28, item 34).

The record is still written; the state export fails with "no final snapshot
exists", writes no file, and a run that would otherwise exit 0 exits 1 (an asked
for output that could not be written). These tests fail when that branch of
``akit workflow run`` is broken on purpose.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest

from artemiskit import ArtemisKit, UnsupportedError
from artemiskit.environments import SandboxConfig
from artemiskit_cli._commands.workflow import _emit
from tests._builders import workflow_dict
from tests._environments import DictFactory
from tests._runs import ReplayTarget, run

MESSAGE = "error: the requested state export failed: no final snapshot exists"


@attrs.define
class UnavailableFactory(DictFactory):
    """An environment that cannot be created here."""

    async def create(self, *, run_id: str, files: Mapping[str, str]) -> Any:
        raise UnsupportedError("not here", reason="environment_unavailable")


def _emitted(result: Any, tmp_path: Path) -> tuple[int, Path]:
    state = tmp_path / "state.json"
    with pytest.raises(SystemExit) as exited:
        _emit(
            result,
            SandboxConfig(),
            output=str(tmp_path / "record.json"),
            as_json=False,
            state_output=str(state),
        )
    code = exited.value.code
    assert isinstance(code, int)
    return code, state


async def test_a_run_without_a_snapshot_says_so_and_keeps_its_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = await ArtemisKit().run_workflow(
        workflow=workflow_dict(outcomes=[]),
        target=ReplayTarget(),
        environment=UnavailableFactory(),
    )
    assert result.state is None
    code, state = _emitted(result, tmp_path)
    assert code == 3  # unsupported environment: the run's own code stays
    assert MESSAGE in capsys.readouterr().err
    assert not state.exists()
    record = json.loads((tmp_path / "record.json").read_text())
    assert record["execution"]["status"] == "unsupported"


async def test_a_passing_run_without_a_snapshot_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    passed = await run(workflow_dict(), [])
    result = attrs.evolve(
        passed, record=attrs.evolve(passed.record, exit_code=0), state=None
    )
    code, state = _emitted(result, tmp_path)
    assert code == 1
    assert MESSAGE in capsys.readouterr().err
    assert not state.exists()
