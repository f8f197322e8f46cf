"""What a Ray task receives (SPEC 15): the files its workflow names, no secret.

No cluster is needed: the task is the pickled `RemoteRun` the suite hands to Ray,
inspected here byte for byte. tests/suites/test_ray.py runs such tasks for real.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from artemiskit import ArtemisKit, ConfigError, TrustedConfig
from artemiskit.providers import ProviderConfig, parse_trusted_config
from artemiskit.suites import RayExecutor, SuiteSession
from artemiskit.suites._runner import _Job
from artemiskit.suites._shipping import worker_config
from tests._builders import PASSING_SCRIPT
from tests.suites._suites import write_member

INLINE_KEY = "sk-inline-SENTINEL-71c"
DRIVER_TOKEN = "hdr-driver-SENTINEL-93a"
WORKER_TOKEN = "hdr-worker-SENTINEL-5d0"
FOLDER_SENTINELS = {
    ".env": "OPENAI_API_KEY=sk-dotenv-SENTINEL-e21",
    ".git/config": "[remote] url = https://token-git-SENTINEL-44b@example",
    "old.transcript.json": '{"text": "transcript-SENTINEL-8f0"}',
    "notes/secret.txt": "notes-SENTINEL-0c3",
}
FIXTURE = (
    "documents:\n  policy:\n    title: Policy\n    content: Refunds within 30 days.\n"
)


def _suite(root: Path) -> Path:
    """One scripted workflow with a fixture, in a folder full of other files."""
    suite = root / "suite"
    path = write_member(suite, "shipped", [PASSING_SCRIPT])
    data = json.loads(path.read_text("utf-8"))
    data["environment"]["fixture"] = "fixtures/state.yaml"
    path.write_text(json.dumps(data), "utf-8")
    folder = path.parent
    (folder / "fixtures").mkdir()
    (folder / "fixtures" / "state.yaml").write_text(FIXTURE, "utf-8")
    for name, text in FOLDER_SENTINELS.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, "utf-8")
    return suite


def _config(root: Path, *, inline: bool) -> Path:
    """A configuration: a header token from a variable, one entry's key inline."""
    providers = {
        "served": {
            "type": "openai",
            "base_url": "http://127.0.0.1:9/v1",
            "api_key_env": "SERVED_KEY",
            "headers": {"X-Token": "Bearer ${AKIT_TEST_TOKEN}"},
        },
        "other": {
            "type": "openai",
            "base_url": "http://127.0.0.1:9/v1",
            "api_key": INLINE_KEY,
        },
    }
    if inline:
        providers["scripted"] = {"type": "scripted", "api_key": INLINE_KEY}
    path = root / "artemis.config.json"
    path.write_text(json.dumps({"providers": providers}), "utf-8")
    return path


async def _session(root: Path, config: Path | TrustedConfig) -> SuiteSession:
    kit = ArtemisKit(config=config)
    return await kit.create_suite_session(
        paths=[root / "suite"], executor=RayExecutor("127.0.0.1:1")
    )


async def test_a_task_carries_the_named_files_and_no_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AKIT_TEST_TOKEN", DRIVER_TOKEN)
    suite = _suite(tmp_path)
    session = await _session(tmp_path, _config(tmp_path, inline=False))
    (unit,) = session._units
    task = session._shipped(_Job(unit=unit, repetition=1))
    folder = suite / "shipped"
    assert dict(task.files) == {
        "agent.script.yaml": (folder / "agent.script.yaml").read_bytes(),
        "fixtures/state.yaml": FIXTURE.encode(),
    }
    shipped = pickle.dumps(task)
    for text in [*FOLDER_SENTINELS.values(), INLINE_KEY, DRIVER_TOKEN]:
        assert text.encode() not in shipped
    assert b"SENTINEL" not in shipped
    assert b"${AKIT_TEST_TOKEN}" in shipped
    # On the worker, the header is expanded from the worker's environment.
    monkeypatch.setenv("AKIT_TEST_TOKEN", WORKER_TOKEN)
    rebuilt = pickle.loads(shipped).make_kit.args[0]()
    assert rebuilt.providers["served"].headers == {"X-Token": f"Bearer {WORKER_TOKEN}"}
    assert rebuilt.providers["served"].api_key_env == "SERVED_KEY"
    # The unused entry with an inline key stayed on the driver altogether.
    assert "other" not in rebuilt.providers


async def test_a_used_entry_with_an_inline_key_is_refused_before_any_run(
    tmp_path: Path,
) -> None:
    _suite(tmp_path)
    with pytest.raises(ConfigError) as caught:
        await _session(tmp_path, _config(tmp_path, inline=True))
    assert caught.value.reason == "inline_key"
    assert "'scripted'" in caught.value.message
    assert "api_key_env" in caught.value.message
    assert INLINE_KEY not in str(caught.value)


async def test_the_local_executor_keeps_inline_keys_usable(tmp_path: Path) -> None:
    _suite(tmp_path)
    kit = ArtemisKit(config=_config(tmp_path, inline=True))
    session = await kit.create_suite_session(paths=[tmp_path / "suite"])
    assert session.planned == 1


def test_a_key_from_a_variable_travels_as_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AKIT_TEST_KEY", DRIVER_TOKEN)
    config = parse_trusted_config(
        json.dumps({"providers": {"served": {"api_key": "${AKIT_TEST_KEY}"}}})
    )
    make = worker_config(config, {"served"})
    assert DRIVER_TOKEN.encode() not in pickle.dumps(make)
    monkeypatch.setenv("AKIT_TEST_KEY", WORKER_TOKEN)
    assert make().providers["served"].resolve_api_key() == WORKER_TOKEN


def test_a_configuration_built_in_code_ships_without_its_keys() -> None:
    entries = {
        "used": ProviderConfig(name="used", type="openai", api_key_env="USED_KEY"),
        "unused": ProviderConfig(name="unused", type="openai", api_key=INLINE_KEY),
    }
    config = TrustedConfig(providers=entries)
    make = worker_config(config, {"used"})
    assert INLINE_KEY.encode() not in pickle.dumps(make)
    assert set(make().providers) == {"used"}
    with pytest.raises(ConfigError) as caught:
        worker_config(config, {"unused"})
    assert caught.value.reason == "inline_key"


async def test_a_case_travels_expanded_without_the_dataset_or_other_cases(
    tmp_path: Path,
) -> None:
    """A run of one case ships that case and the files named, nothing of the rest."""
    from tests.suites.test_dataset_suites import suite_folder

    path = suite_folder(tmp_path, cases=3)
    rows = (path.parent / "cases.jsonl").read_text("utf-8").splitlines()
    marked = [row.replace("ticket", f"row-{n}-SENTINEL") for n, row in enumerate(rows)]
    (path.parent / "cases.jsonl").write_text("\n".join(marked) + "\n", "utf-8")
    session = await ArtemisKit().create_suite_session(
        paths=[path], executor=RayExecutor("127.0.0.1:1")
    )
    (unit,) = session._units
    task = session._shipped(_Job(unit=unit, repetition=2, case="c-2"))
    assert list(task.files) == ["agent.script.yaml"]
    assert task.case is not None
    assert (task.case.id, task.repetition) == ("c-2", 2)
    assert task.target is None
    shipped = pickle.dumps(task)
    assert b"row-1-SENTINEL" in shipped  # c-2's own values: the case it runs
    assert b"row-0-SENTINEL" not in shipped
    assert b"row-2-SENTINEL" not in shipped
    assert b"cases.jsonl" not in shipped
    # Runs of one unit differ only in their case and repetition.
    other = session._shipped(_Job(unit=unit, repetition=1, case="c-3"))
    assert other.files_key == task.files_key
    assert other.key != task.key
