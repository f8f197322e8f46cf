"""Scenario files load as the TypeScript ArtemisKit read them (SPEC 17)."""

from __future__ import annotations

from pathlib import Path

import pytest

from artemiskit.prompt_response import (
    ScenarioError,
    discover_scenario_files,
    load_scenario,
    parse_scenario,
)
from artemiskit.prompt_response._variables import substitute_variables
from tests._cli import akit_process

MINIMAL_CASE = (
    "cases:\n  - id: a\n    prompt: hi\n    expected: {type: exact, value: '4'}\n"
)


def test_yaml_1_2_keeps_yes_and_dates_as_strings() -> None:
    scenario = parse_scenario(
        "name: s\nvariables: {answer: yes, day: 2024-01-01, n: 1.0, flag: true}\n"
        + MINIMAL_CASE
    )
    assert scenario.variables == {
        "answer": "yes",
        "day": "2024-01-01",
        "n": 1.0,
        "flag": True,
    }


def test_variables_print_as_javascript_would() -> None:
    values = {"n": 1.0, "flag": True, "small": 1e-7, "big": 1e21, "x": 2.5}
    text = "{{n}} {{flag}} {{small}} {{big}} {{x}} {{ n }} {{unknown}}"
    assert substitute_variables(text, values) == (
        "1 true 1e-7 1e+21 2.5 {{ n }} {{unknown}}"
    )


def test_environment_variables_expand_with_defaults_everywhere() -> None:
    scenario = parse_scenario(
        "name: ${NAME:-fallback}\n"
        "cases:\n"
        "  - id: a\n"
        "    prompt: 'key ${KEY} empty ${EMPTY:-d} none ${NONE}'\n"
        "    expected: {type: contains, values: ['${KEY}']}\n",
        environ={"KEY": "k1", "EMPTY": ""},
    )
    assert scenario.name == "fallback"
    assert scenario.cases[0].prompt == "key k1 empty d none "
    assert scenario.cases[0].expected == {
        "type": "contains",
        "values": ["k1"],
        "mode": "all",
    }
    assert any("NONE is not set" in notice for notice in scenario.notices)


def test_unknown_keys_are_ignored_and_noticed() -> None:
    scenario = parse_scenario(
        "name: s\nsystem_prompt: dropped\nstress: {x: 1}\n" + MINIMAL_CASE,
        source="s.yaml",
    )
    assert [n.split(": ", 1)[1] for n in scenario.notices] == [
        "ignored unknown key $.system_prompt",
        "ignored unknown key $.stress",
    ]


def test_expectations_are_stored_in_schema_order_with_defaults() -> None:
    scenario = parse_scenario(
        "name: s\ncases:\n"
        "  - id: a\n    prompt: p\n    expected: {value: '4', type: exact, junk: 1}\n"
        "  - id: b\n    prompt: p\n    expected:\n"
        "      type: combined\n      operator: or\n      expectations:\n"
        "        - {type: fuzzy, value: v}\n"
        "        - {type: similarity, value: v}\n"
    )
    first, second = (case.expected for case in scenario.cases)
    assert list(first.items()) == [
        ("type", "exact"),
        ("value", "4"),
        ("caseSensitive", True),
    ]
    assert second == {
        "type": "combined",
        "operator": "or",
        "expectations": [
            {"type": "fuzzy", "value": "v", "threshold": 0.8},
            {"type": "similarity", "value": "v", "threshold": 0.75},
        ],
    }


def test_every_problem_is_listed_with_its_position() -> None:
    text = (
        "name: s\n"
        "version: 1.0\n"
        "temperature: 3\n"
        "cases:\n"
        "  - id: a\n"
        "    prompt: [{role: robot, content: hi}]\n"
        "    expected: {type: contains, values: [42]}\n"
        "  - id: a\n"
        "    expected: {type: combined, operator: and, expectations: "
        "[{type: combined, operator: or, expectations: []}]}\n"
    )
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, source="bad.yaml")
    found = {(p.path, p.line, p.column) for p in caught.value.problems}
    assert found == {
        ("$.version", 2, 10),
        ("$.temperature", 3, 14),
        ("$.cases[0].prompt[0].role", 6, 21),
        ("$.cases[0].expected.values", 7, 40),
        ("$.cases[1].prompt", 8, 5),
        ("$.cases[1].expected.expectations[0].type", 9, 69),
        ("$.cases[1].id", 8, 9),
    }
    assert all(p.source == "bad.yaml" for p in caught.value.problems)


def test_a_custom_evaluator_must_be_registered() -> None:
    text = (
        "name: s\ncases:\n  - id: a\n    prompt: p\n"
        "    expected: {type: custom, evaluator: mine}\n"
    )
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, evaluators=())
    assert "artemiskit.evaluators" in caught.value.problems[0].message
    scenario = parse_scenario(text, evaluators=("mine",))
    assert scenario.cases[0].expected == {"type": "custom", "evaluator": "mine"}


def test_duplicate_keys_are_refused() -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario("name: a\nname: b\n" + MINIMAL_CASE, source="d.yaml")
    assert caught.value.problems[0].line == 2


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("version: 1\nname: w\ntarget: {provider: scripted, model: m}\n", "workflow"),
        ('{"schema": "artemiskit.workflow-record", "schema_version": 3}', "record"),
        ('{"schema": "artemiskit.suite-record"}', "suite record"),
    ],
)
def test_workflow_files_are_named_and_refused(text: str, what: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, source="f")
    assert caught.value.reason == "not_a_scenario"
    assert what in caught.value.message


async def test_files_load_from_disk(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("name: s\n" + MINIMAL_CASE, encoding="utf-8")
    scenario = await load_scenario(path)
    assert scenario.name == "s"
    assert scenario.source == str(path)
    assert "hi" not in repr(scenario)
    assert "hi" not in repr(scenario.cases[0])


def _touch(root: Path, *names: str) -> None:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x", encoding="utf-8")


def test_discovery_of_folders_and_globs(tmp_path: Path) -> None:
    _touch(
        tmp_path,
        "b.yaml",
        "a.yml",
        "notes.txt",
        "deep/c.yaml",
        "node_modules/skip.yaml",
        "deep/build/skip.yaml",
        "A.YAML",
    )
    found = discover_scenario_files(str(tmp_path))
    assert [Path(f).relative_to(tmp_path).as_posix() for f in found] == [
        "a.yml",
        "b.yaml",
        "deep/c.yaml",
    ]
    nested = discover_scenario_files(f"{tmp_path}/**/*.yaml")
    assert [Path(f).name for f in nested] == ["c.yaml"]
    single = discover_scenario_files(f"{tmp_path}/?.yaml")
    assert [Path(f).name for f in single] == ["b.yaml"]
    assert discover_scenario_files(str(tmp_path / "notes.txt")) == [
        str(tmp_path / "notes.txt")
    ]


def test_a_repeated_case_id_names_the_id_and_the_line_of_its_first_use() -> None:
    text = (
        "name: s\ncases:\n"
        "  - id: greet\n    prompt: hi\n    expected: {type: exact, value: '4'}\n"
        "  - id: other\n    prompt: hi\n    expected: {type: exact, value: '4'}\n"
        "  - id: greet\n    prompt: hi\n    expected: {type: exact, value: '4'}\n"
    )
    with pytest.raises(ScenarioError) as raised:
        parse_scenario(text, source="s.yaml")
    [problem] = raised.value.problems
    assert problem.path == "$.cases[2].id"
    assert problem.message == "case id 'greet' is already used by cases[0] at line 3"
    assert problem.line == 9


def test_a_link_loop_in_a_searched_folder_is_skipped(tmp_path: Path) -> None:
    _touch(tmp_path, "b.yaml")
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "l1").symlink_to("l2")
    (tmp_path / "l2").symlink_to("l1")
    for argument in (str(tmp_path), f"{tmp_path}/*", f"{tmp_path}/**"):
        found = discover_scenario_files(argument)
        assert [Path(f).name for f in found] == ["b.yaml"]


def test_a_glob_matches_in_linear_time(tmp_path: Path) -> None:
    """A glob of many ``**`` against a long path (it backtracked for minutes)."""
    deep = tmp_path.joinpath(*["a" * 60] * 19)
    deep.mkdir(parents=True)
    (deep / "x.yaml").write_text(MINIMAL_CASE, "utf-8")
    # a real process with a bounded wait: a backtracking matcher fails the test
    done = akit_process(
        "validate", f"{tmp_path}/" + "**a" * 10 + "**b", cwd=tmp_path, timeout=60
    )
    assert done.returncode == 2, done.stderr
    assert "no scenario files matched" in done.stderr
    found = discover_scenario_files(f"{tmp_path}/" + "**a" * 10 + "**.yaml")
    assert [Path(f).name for f in found] == ["x.yaml"]
