"""Suite discovery: which files a suite runs, and what an invalid member says.

Every workflow, script and fixture is checked before any run (SPEC 13); each
refusal names the file, and where it can, the key and line of the workflow that
is at fault. Most tests go through ``ArtemisKit.run_suite``; the shared scripts
are checked on `load_suite_workflows`, which the SDK calls before anything runs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from artemiskit import ArtemisKit, WorkflowError
from artemiskit.providers import parse_trusted_config
from artemiskit.suites import discover_workflows
from artemiskit.suites._discovery import load_suite_workflows
from tests._builders import PASSING_SCRIPT, workflow_dict
from tests.suites._suites import write_member


def test_paths_are_taken_in_order_folders_expanded_and_sorted(tmp_path: Path) -> None:
    first = write_member(tmp_path / "one", "b", [PASSING_SCRIPT])
    write_member(tmp_path / "one", "a", [PASSING_SCRIPT])
    (tmp_path / "one" / "a" / "x.workflow.yml").write_text("{}", "utf-8")
    (tmp_path / "one" / "a" / "notes.yaml").write_text("{}", "utf-8")
    single = write_member(tmp_path / "two", "c", [PASSING_SCRIPT])
    found = discover_workflows([single, tmp_path / "one", first])
    assert found == [
        single,
        tmp_path / "one" / "a" / "workflow.yaml",
        tmp_path / "one" / "a" / "x.workflow.yml",
        first,
        first,
    ]


def test_a_folder_without_workflows_is_named(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(WorkflowError) as caught:
        discover_workflows([empty])
    assert caught.value.reason == "no_workflows"
    assert caught.value.message == (
        f"{os.fspath(empty)}: the folder holds no workflow file "
        "(workflow.yaml, *.workflow.yaml, .yml)"
    )


async def test_no_path_at_all_is_refused() -> None:
    with pytest.raises(WorkflowError) as caught:
        await load_suite_workflows([], parse_trusted_config("{}"))
    assert (caught.value.reason, caught.value.message) == (
        "no_workflows",
        "no workflow was given",
    )


async def test_an_unknown_provider_is_located_on_the_workflow_key(
    tmp_path: Path,
) -> None:
    path = write_member(
        tmp_path, "lost", [PASSING_SCRIPT], target={"provider": "nowhere", "model": "m"}
    )
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(paths=[tmp_path])
    error = caught.value
    assert error.reason == "invalid_suite"
    assert error.message == "the suite is invalid (1 file with problems); nothing ran"
    [problem] = error.problems
    assert problem.message == (
        "provider 'nowhere' has no entry: no trusted configuration was given"
    )
    assert problem.source == os.fspath(path)
    assert problem.path == "$.target.provider"
    assert problem.line is not None
    lines = path.read_text("utf-8").splitlines()
    assert '"provider": "nowhere"' in lines[problem.line - 1]


async def test_an_unknown_provider_names_the_configuration(tmp_path: Path) -> None:
    config = tmp_path / "artemis.config.yaml"
    config.write_text(json.dumps({"providers": {}}), "utf-8")
    for name in ("one", "two"):
        write_member(
            tmp_path / "suite",
            name,
            [PASSING_SCRIPT],
            target={"provider": "nowhere", "model": "m"},
        )
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit(config=config).run_suite(paths=[tmp_path / "suite"])
    error = caught.value
    assert error.message == "the suite is invalid (2 files with problems); nothing ran"
    assert [p.message for p in error.problems] == [
        "provider 'nowhere' has no entry: the trusted configuration "
        f"{config} has no such entry"
    ] * 2


async def test_a_scripted_entry_reads_its_scripts_folder_once(tmp_path: Path) -> None:
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    member = write_member(
        tmp_path / "suite",
        "steady",
        [PASSING_SCRIPT],
        target={"provider": "offline", "model": "agent"},
    )
    (member.parent / "agent.script.yaml").rename(scripts / "agent.script.yaml")
    text = json.dumps(
        {"providers": {"offline": {"type": "scripted", "scripts_dir": str(scripts)}}}
    )
    [loaded] = await load_suite_workflows([member], parse_trusted_config(text))
    assert loaded.script is not None
    key, variants = loaded.script
    assert key.startswith(os.fspath(scripts)) or os.fspath(scripts) in key
    assert variants is not None
    # Another provider type has no script to read.
    other = json.dumps(
        {"providers": {"offline": {"type": "openai", "base_url": "http://127.0.0.1:9"}}}
    )
    [remote] = await load_suite_workflows([member], parse_trusted_config(other))
    assert remote.script is None


async def test_a_valid_fixture_loads_and_a_missing_one_names_the_workflow_key(
    tmp_path: Path,
) -> None:
    fixture = {"documents": {"d-1": {"title": "Policy", "content": "30 days"}}}
    good = write_member(tmp_path / "good", "good", [PASSING_SCRIPT])
    data = workflow_dict(name="good")
    data["environment"] = {**data["environment"], "fixture": "extra.json"}
    good.write_text(json.dumps(data, indent=2), "utf-8")
    (good.parent / "extra.json").write_text(json.dumps(fixture), "utf-8")
    [loaded] = await load_suite_workflows([good], parse_trusted_config("{}"))
    assert loaded.name == "good"
    result = await ArtemisKit().run_suite(paths=[good])
    assert result.exit_code == 0
    # The reference itself is at fault: located on environment.fixture.
    (good.parent / "extra.json").unlink()
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(paths=[good])
    [problem] = caught.value.problems
    assert problem.source == os.fspath(good)
    assert problem.path == "$.environment.fixture"
    # The fixture file is at fault: its own problem, in its own file.
    (good.parent / "extra.json").write_text('{"documents": 5}', "utf-8")
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(paths=[good])
    assert caught.value.problems
    assert {p.source for p in caught.value.problems} == {
        os.fspath(good.parent / "extra.json")
    }


async def test_a_scorer_outcome_naming_no_registered_scorer_is_refused(
    tmp_path: Path,
) -> None:
    outcomes = [{"id": "graded", "scorer": "nowhere"}]
    write_member(tmp_path, "graded", [PASSING_SCRIPT], outcomes=outcomes)
    with pytest.raises(WorkflowError) as caught:
        await ArtemisKit().run_suite(paths=[tmp_path])
    assert caught.value.reason == "invalid_suite"
    [problem] = caught.value.problems
    assert problem.path == "$.outcomes[0].scorer"
    assert problem.message.startswith("names a scorer that is not registered")
    # No scorers given at all means none registered, not "unchecked".
    with pytest.raises(WorkflowError) as unchecked:
        await load_suite_workflows([tmp_path], parse_trusted_config("{}"))
    assert [p.path for p in unchecked.value.problems] == ["$.outcomes[0].scorer"]
