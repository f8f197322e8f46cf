"""Workflows with cases (SPEC 19): datasets read, every case expanded and checked.

Each bad input is exit 2 with ``FILE:LINE`` naming the dataset and case, offline.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

import pytest

from artemiskit import WorkflowError
from artemiskit.workflow import read_agent_workflow_data
from tests._cli import akit
from tests.workflow._cases import dump

if TYPE_CHECKING:
    from pathlib import Path

SENTINEL = "SENTINEL-CASE-VALUE-7f3a"


def workflow(**changes: Any) -> dict[str, Any]:
    """A valid workflow whose conversation, files and outcomes use placeholders."""
    data: dict[str, Any] = {
        "version": 1,
        "name": "triage",
        "target": {"provider": "scripted", "model": "agent"},
        "environment": {
            "kind": "simulated",
            "files": {"orders/{{ order_id }}.json": "{{ order_json }}"},
        },
        "tools": [{"name": "read_file", "allow": {"paths": ["orders/*"]}}],
        "conversation": {"turns": [{"user": "Ticket {{ ticket }}: {{ request }}"}]},
        "budgets": {"max_actions": 10, "timeout_ms": 10000},
        "outcomes": [
            {"id": "said", "final_response": {"contains": "{{ expected }}"}},
        ],
    }
    data.update(changes)
    return data


def row(number: int, /, **changes: Any) -> dict[str, Any]:
    """A case that fills `workflow`'s placeholders."""
    values: dict[str, Any] = {
        "id": f"t-{number}",
        "order_id": f"o{number}",
        "order_json": json.dumps({"total": number}),
        "ticket": number,
        "request": f"refund {SENTINEL}",
        "expected": "approved",
    }
    values.update(changes)
    return {k: v for k, v in values.items() if v is not None}


def write(tmp_path: Path, data: dict[str, Any], files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    path = tmp_path / "workflow.yaml"
    path.write_text(dump(data), encoding="utf-8")
    return path


def jsonl(*rows: dict[str, Any]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def problems(path: Path) -> list[tuple[str, int | None, str, str]]:
    with pytest.raises(WorkflowError) as caught:
        read_agent_workflow_data(path)
    return [
        (os.path.basename(p.source or ""), p.line, p.path, p.message)
        for p in caught.value.problems
    ]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("cases.jsonl", jsonl(row(1), row(2))),
        ("cases.json", json.dumps([row(1), row(2)], indent=1)),
        (
            "cases.yaml",
            "- " + dump(row(1)).replace("\n", "\n  ").rstrip() + "\n"
            "- " + dump(row(2)).replace("\n", "\n  ").rstrip() + "\n",
        ),
        (
            "cases.csv",
            "id,order_id,order_json,ticket,request,expected\n"
            't-1,o1,"{""total"": 1}",1,refund,approved\n'
            "t-2,o2,{},2,refund,approved\n",
        ),
    ],
)
def test_every_format_validates(tmp_path: Path, name: str, text: str) -> None:
    path = write(tmp_path, workflow(dataset=name), {name: text})
    result = akit("scenario", "validate", path)
    assert result.returncode == 0, result.stderr
    assert "cases from its dataset" in result.stderr


def test_inline_cases_validate(tmp_path: Path) -> None:
    path = write(tmp_path, workflow(cases=[row(1), row(2)]), {})
    result = akit("scenario", "validate", path)
    assert result.returncode == 0, result.stderr
    assert "2 cases" in result.stderr


def _bad(tmp_path: Path, name: str, text: str | None) -> Path:
    files = {} if text is None else {name: text}
    return write(tmp_path, workflow(dataset=name), files)


@pytest.mark.parametrize(
    ("name", "text", "line", "words"),
    [
        ("cases.jsonl", jsonl(row(1)) + '{"id": \n', 2, "invalid JSON"),
        ("cases.jsonl", jsonl(row(1), row(1)), 2, "repeats the case on line 1"),
        ("cases.csv", "id,a\nx,1\ny\n", 3, "has 1 fields; the header has 2"),
        ("cases.json", '[\n  {"id": "a"},\n  {"id": "a"}\n]', 3, "repeats"),
        ("cases.yaml", "- id: a\n- id: a\n", 2, "repeats"),
        ("cases.yaml", "- id: a\n- [1]\n", 2, "mapping"),
        ("cases.json", '{"id": "a"}', 1, "holds a list"),
        ("cases.jsonl", "", None, "holds no cases"),
        # a number JSON cannot write back is refused where it is read
        ("cases.jsonl", jsonl(row(1)) + '{"id": "b", "request": NaN}\n', 2, "finite"),
        ("cases.jsonl", jsonl(row(1)) + '{"id": "b", "ticket": 1e400}\n', 2, "finite"),
        ("cases.json", '[{"id": "a"},\n  {"id": "b", "x": [-Infinity]}]', 2, "finite"),
        ("cases.yaml", "- id: a\n- id: b\n  request: .nan\n", 2, "finite"),
        ("cases.yaml", "- id: a\n  ticket: {n: [-.inf]}\n", 1, "finite"),
    ],
)
def test_bad_rows_name_the_dataset_line(
    tmp_path: Path, name: str, text: str, line: int | None, words: str
) -> None:
    path = _bad(tmp_path, name, text)
    found = problems(path)
    assert len(found) == 1
    source, at, _, message = found[0]
    assert (source, at) == (name, line)
    assert words in message
    result = akit("scenario", "validate", path)
    assert result.returncode == 2
    where = f"{tmp_path / name}:{line}" if line else f"{tmp_path / name}:"
    assert where in result.stderr
    assert "Traceback" not in result.stderr


def test_invalid_json_deep_in_a_big_file_names_its_line(tmp_path: Path) -> None:
    text = jsonl(*(row(n) for n in range(1, 4321))) + '{"id": "x", bad}\n'
    path = _bad(tmp_path, "cases.jsonl", text)
    result = akit("scenario", "validate", path)
    assert result.returncode == 2
    assert f"{tmp_path / 'cases.jsonl'}:4321:" in result.stderr


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ("missing", "not found"),
        ("folder", "not a regular file"),
        ("fifo", "not a regular file"),
        ("suffix", "a dataset is a .jsonl"),
        ("link", "symbolic link"),
    ],
)
def test_unreadable_datasets_are_exit_2(tmp_path: Path, setup: str, words: str) -> None:
    name = "cases.jsonl"
    if setup == "folder":
        (tmp_path / name).mkdir()
    elif setup == "fifo":
        os.mkfifo(tmp_path / name)
    elif setup == "suffix":
        name = "cases.txt"
        (tmp_path / name).write_text(jsonl(row(1)))
    elif setup == "link":
        (tmp_path / "real.jsonl").write_text(jsonl(row(1)))
        (tmp_path / name).symlink_to(tmp_path / "real.jsonl")
    path = _bad(tmp_path, name, None)
    result = akit("scenario", "validate", path)
    assert result.returncode == 2, result.stderr
    assert words in result.stderr
    assert "Traceback" not in result.stderr


def test_a_dataset_over_64_mib_is_refused_unparsed(tmp_path: Path) -> None:
    with open(tmp_path / "cases.jsonl", "wb") as out:
        out.truncate(64 * 1024 * 1024 + 1)
    result = akit("scenario", "validate", _bad(tmp_path, "cases.jsonl", None))
    assert result.returncode == 2
    assert "larger than" in result.stderr


def test_more_than_100000_cases_are_refused(tmp_path: Path) -> None:
    text = "id\n" + "".join(f"c{n}\n" for n in range(100_001))
    result = akit("scenario", "validate", _bad(tmp_path, "cases.csv", text))
    assert result.returncode == 2
    assert f"{tmp_path / 'cases.csv'}:100002:" in result.stderr
    assert "at most 100000 cases" in result.stderr


def test_cases_and_dataset_together_are_refused(tmp_path: Path) -> None:
    data = workflow(cases=[row(1)], dataset="c.jsonl")
    path = write(tmp_path, data, {"c.jsonl": jsonl(row(1))})
    assert any("not both" in p[3] for p in problems(path))


def test_a_name_one_case_lacks_names_the_case_line_and_key_path(tmp_path: Path) -> None:
    text = jsonl(row(1), row(2, ticket=None), row(3))
    found = problems(_bad(tmp_path, "cases.jsonl", text))
    assert found == [
        (
            "cases.jsonl",
            2,
            "$.conversation.turns[0].user",
            "case t-2: the case has no value for 'ticket'",
        )
    ]


def test_a_name_no_case_has_is_named_once_at_the_workflow(tmp_path: Path) -> None:
    text = jsonl(row(1, expected=None), row(2, expected=None))
    found = problems(_bad(tmp_path, "cases.jsonl", text))
    assert found == [
        (
            "workflow.yaml",
            found[0][1],
            "$.outcomes[0].final_response.contains",
            "no case has a value for 'expected'",
        )
    ]


def test_an_expansion_that_breaks_the_contract_names_case_and_path(
    tmp_path: Path,
) -> None:
    text = jsonl(row(1), row(2, expected=""), row(3, order_id="../x"))
    found = problems(_bad(tmp_path, "cases.jsonl", text))
    assert [(f[1], f[2]) for f in found] == [
        (2, "$.outcomes[0].final_response.contains"),
        (3, '$.environment.files["orders/{{ order_id }}.json"]'),
    ]
    assert found[0][3].startswith("case t-2: ")
    assert found[1][3].startswith("case t-3: ")


def test_typed_whole_values_are_checked_with_their_type(tmp_path: Path) -> None:
    data = workflow(
        outcomes=[{"id": "n", "state": "files", "length": {"min": "{{ size }}"}}]
    )
    text = jsonl(row(1, size=1), row(2, size="one"))
    found = problems(write(tmp_path, {**data, "dataset": "c.jsonl"}, {"c.jsonl": text}))
    assert [(f[1], f[2]) for f in found] == [(2, "$.outcomes[0].length.min")]


@pytest.mark.parametrize(
    ("section", "value", "path"),
    [
        ("target", {"provider": "scripted", "model": "{{ m }}"}, "$.target.model"),
        (
            "tools",
            [{"name": "read_file", "allow": {"paths": ["orders/{{ id }}"]}}],
            "$.tools[0].allow.paths[0]",
        ),
        ("policy", {"on_denial": "{{ d }}"}, "$.policy.on_denial"),
        (
            "budgets",
            {"max_actions": "{{ n }}", "timeout_ms": 1000},
            "$.budgets.max_actions",
        ),
    ],
)
def test_placeholders_in_fixed_sections_are_refused(
    tmp_path: Path, section: str, value: Any, path: str
) -> None:
    data = workflow(cases=[row(1, m="x", d="stop", n=3)])
    data[section] = value
    found = problems(write(tmp_path, data, {}))
    assert [(f[0], f[2]) for f in found] == [("workflow.yaml", path)]
    assert "same for every case" in found[0][3]


def test_a_problem_of_the_workflow_itself_is_listed_once(tmp_path: Path) -> None:
    data = workflow(cases=[row(n) for n in range(1, 30)])
    data["outcomes"][0]["unknown"] = "{{ ticket }}"
    found = problems(write(tmp_path, data, {}))
    assert len(found) == 1
    assert found[0][0] == "workflow.yaml"


def test_an_inline_case_with_a_non_finite_number_is_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, workflow(cases=[row(1, request=float("inf"))]), {})
    result = akit("scenario", "validate", path)
    assert result.returncode == 2, result.stderr
    assert "finite" in result.stderr
    assert "Traceback" not in result.stderr


def test_inline_case_errors_have_the_workflow_position(tmp_path: Path) -> None:
    data = workflow(cases=[row(1), row(1)])
    found = problems(write(tmp_path, data, {}))
    assert [(f[0], f[2]) for f in found] == [("workflow.yaml", "$.cases[1]")]
    assert "repeats" in found[0][3]


def test_case_values_never_appear_in_problems(tmp_path: Path) -> None:
    text = jsonl(
        row(1, ticket=None),
        row(2, order_id=f"../{SENTINEL}"),
        row(3, expected=""),
        {"id": f"{SENTINEL}!"},
    )
    result = akit("scenario", "validate", "--json", _bad(tmp_path, "c.jsonl", text))
    assert result.returncode == 2
    assert SENTINEL not in result.stdout + result.stderr


def test_many_failing_cases_are_listed_up_to_a_bound(tmp_path: Path) -> None:
    text = jsonl(*(row(n, ticket=None) for n in range(1, 300)), row(300))
    found = problems(_bad(tmp_path, "c.jsonl", text))
    assert len(found) == 101
    assert found[-1][3] == "199 more problems of single cases are not listed"


def test_validation_is_cold_and_reads_only_the_dataset(tmp_path: Path) -> None:
    path = _bad(tmp_path, "c.jsonl", jsonl(row(1)))
    result = akit("scenario", "validate", "--fixture-root", tmp_path, path)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("name", "text", "line", "column"),
    [
        # the repeated key's position, in every format that has keys
        ("cases.json", '[\n  {"id": "a", "ticket": 1, "ticket": 2}\n]', 2, 28),
        ("cases.json", '[{"id": "a"},\n {"id": "b", "x": {"k": 1,\n  "k": 2}}]', 3, 3),
        ("cases.json", '[{"id": "a", "\\u0069d": "b"}]', 1, 14),
        ("cases.jsonl", jsonl(row(1)) + '{"id": "b", "id": "c"}\n', 2, 13),
        ("cases.jsonl", '{"id": "a", "x": [{"y": 1, "y": 1}]}\n', 1, 28),
        ("cases.yaml", "- id: a\n  ticket: 1\n  ticket: 2\n", 3, 3),
    ],
)
def test_a_repeated_key_is_refused_at_its_line_and_column(
    tmp_path: Path, name: str, text: str, line: int, column: int
) -> None:
    """Duplicate keys are an error (never "the last one wins"), as in YAML."""
    path = _bad(tmp_path, name, text)
    found = problems(path)
    assert len(found) == 1
    source, at, _, message = found[0]
    assert (source, at) == (name, line)
    assert "duplicate key" in message
    result = akit("scenario", "validate", path)
    assert result.returncode == 2
    assert f"{tmp_path / name}:{line}:{column}: " in result.stderr
    assert "Traceback" not in result.stderr


def test_a_repeated_csv_column_is_refused_at_the_header(tmp_path: Path) -> None:
    path = _bad(tmp_path, "cases.csv", "id,ticket,ticket\na,1,2\n")
    result = akit("scenario", "validate", path)
    assert result.returncode == 2
    assert f"{tmp_path / 'cases.csv'}:1:" in result.stderr
    assert "distinct" in result.stderr
