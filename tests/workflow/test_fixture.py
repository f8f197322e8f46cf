"""`load_fixture_state` and `merge_fixture` against real files, links and modes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from artemiskit import FixtureError, WorkflowError
from artemiskit.workflow import (
    Document,
    EnvironmentSpec,
    InitialState,
)
from artemiskit.workflow._fixture import (
    MAX_FIXTURE_FILE_BYTES,
    FixtureContents,
    load_fixture_state,
    merge_fixture,
)

YAML_FIXTURE = """\
documents:
  extra-1: {title: Extra, content: more text}
records:
  tickets:
    T-9: {status: open}
files:
  ./notes//b.md: "b"
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    base = tmp_path / "root"
    (base / "fixtures").mkdir(parents=True)
    return base


async def test_yaml_fixture_loads(root: Path) -> None:
    (root / "fixtures" / "extra.yaml").write_text(YAML_FIXTURE, "utf-8")
    loaded = await load_fixture_state("fixtures/extra.yaml", fixture_root=root)
    assert loaded.documents == {"extra-1": Document(title="Extra", content="more text")}
    assert loaded.records == {"tickets": {"T-9": {"status": "open"}}}
    assert loaded.files == {"notes/b.md": "b"}


async def test_json_fixture_loads(root: Path) -> None:
    data = {"files": {"a.txt": "A"}, "records": {"t": {"1": {"k": [1, 2]}}}}
    (root / "fixtures" / "extra.json").write_text(json.dumps(data), "utf-8")
    loaded = await load_fixture_state("fixtures/extra.json", fixture_root=str(root))
    assert loaded.files == {"a.txt": "A"}
    assert loaded.records == {"t": {"1": {"k": [1, 2]}}}
    assert loaded.documents == {}


@pytest.mark.parametrize(
    ("reference", "rule"),
    [
        ("../outside.yaml", "'..'"),
        ("fixtures/../../outside.yaml", "'..'"),
        ("/etc/passwd.yaml", "absolute"),
        ("fixtures\\x.yaml", "backslash"),
        ("fixtures/extra.txt", ".json, .yaml or .yml"),
        ("fixtures/missing.yaml", "not found"),
        ("fixtures", ".json, .yaml or .yml"),
    ],
)
async def test_bad_references_are_refused(
    root: Path, reference: str, rule: str
) -> None:
    (root.parent / "outside.yaml").write_text("files: {}\n", "utf-8")
    with pytest.raises(FixtureError) as caught:
        await load_fixture_state(reference, fixture_root=root)
    assert rule in str(caught.value)


async def test_symlinked_file_is_refused(root: Path) -> None:
    secret = root.parent / "secret.yaml"
    secret.write_text("files: {stolen.txt: s3cret}\n", "utf-8")
    (root / "fixtures" / "link.yaml").symlink_to(secret)
    with pytest.raises(FixtureError) as caught:
        await load_fixture_state("fixtures/link.yaml", fixture_root=root)
    assert "symbolic link" in str(caught.value)
    assert "s3cret" not in str(caught.value)


async def test_symlinked_directory_component_is_refused(root: Path) -> None:
    elsewhere = root.parent / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "extra.yaml").write_text("files: {}\n", "utf-8")
    (root / "linked").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(FixtureError) as caught:
        await load_fixture_state("linked/extra.yaml", fixture_root=root)
    assert "symbolic link" in str(caught.value)


async def test_symlink_to_inside_the_root_is_refused_too(root: Path) -> None:
    (root / "fixtures" / "real.yaml").write_text("files: {}\n", "utf-8")
    (root / "fixtures" / "alias.yaml").symlink_to(root / "fixtures" / "real.yaml")
    with pytest.raises(FixtureError):
        await load_fixture_state("fixtures/alias.yaml", fixture_root=root)


async def test_non_regular_files_are_refused(root: Path) -> None:
    os.mkfifo(root / "fixtures" / "pipe.yaml")
    with pytest.raises(FixtureError) as caught:
        await load_fixture_state("fixtures/pipe.yaml", fixture_root=root)
    assert "regular file" in str(caught.value)


async def test_component_that_is_a_file_is_refused(root: Path) -> None:
    (root / "fixtures" / "plain").write_text("x", "utf-8")
    with pytest.raises(FixtureError) as caught:
        await load_fixture_state("fixtures/plain/x.yaml", fixture_root=root)
    assert "not a directory" in str(caught.value)


async def test_missing_root_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FixtureError) as caught:
        await load_fixture_state("a.yaml", fixture_root=tmp_path / "nope")
    assert "fixture root" in str(caught.value)


async def test_oversize_fixture_is_refused(root: Path) -> None:
    big = root / "fixtures" / "big.json"
    with big.open("wb") as stream:
        stream.truncate(MAX_FIXTURE_FILE_BYTES + 1)
    with pytest.raises(FixtureError) as caught:
        await load_fixture_state("fixtures/big.json", fixture_root=root)
    assert "larger than" in str(caught.value)


@pytest.mark.parametrize(
    ("name", "content", "rule"),
    [
        ("shape.yaml", "tools: []\n", "not a known key"),
        ("list.yaml", "- a\n", "must be an object"),
        ("types.yaml", "files: {a.txt: 3}\n", "must be a string"),
        ("doc.yaml", "documents: {d: {title: t}}\n", "is required"),
        ("path.yaml", "files: {/abs.txt: x}\n", "absolute"),
        ("tag.yaml", "files: !!map {}\n", "tags"),
        ("dup.yaml", "files: {}\nfiles: {}\n", "duplicate key"),
        ("dup.json", '{"files": {}, "files": {}}', "duplicate key"),
        ("nan.json", '{"records": {"t": {"1": {"x": NaN}}}}', "not valid JSON"),
        ("syntax.json", '{"files": ', "not valid JSON"),
        ("latin1.yaml", b"files: {a: \xe9}\n", "UTF-8"),
        ("nan.yaml", "records: {t: {'1': {x: .nan}}}\n", "finite"),
        (
            "bigdoc.yaml",
            "documents: {d: {title: t, content: " + "x" * (256 * 1024 + 1) + "}}\n",
            "256 KiB",
        ),
    ],
)
async def test_bad_contents_are_refused(
    root: Path, name: str, content: str | bytes, rule: str
) -> None:
    target = root / "fixtures" / name
    if isinstance(content, bytes):
        target.write_bytes(content)
    else:
        target.write_text(content, "utf-8")
    with pytest.raises(FixtureError) as caught:
        await load_fixture_state(f"fixtures/{name}", fixture_root=root)
    assert isinstance(caught.value, WorkflowError)
    assert rule in str(caught.value)


async def test_a_repeated_json_key_is_refused_at_its_line_and_column(
    root: Path,
) -> None:
    text = '{"files": {"a.txt": "x",\n  "a.txt": "y"}}'
    (root / "fixtures" / "dup.json").write_text(text, "utf-8")
    with pytest.raises(FixtureError) as caught:
        await load_fixture_state("fixtures/dup.json", fixture_root=root)
    (problem,) = caught.value.problems
    assert "duplicate key" in problem.message
    assert (problem.line, problem.column) == (2, 3)


def _environment() -> EnvironmentSpec:
    return EnvironmentSpec(
        files={"docs/a.md": "A"},
        state=InitialState(
            documents={"d-1": Document(title="t", content="c")},
            records={"tickets": {"T-1": {"status": "open"}}},
        ),
    )


def test_merge_adds_everything() -> None:
    fixture = FixtureContents(
        documents={"d-2": Document(title="t2", content="c2")},
        records={"tickets": {"T-2": {"status": "new"}}, "users": {"u": {}}},
        files={"docs/b.md": "B"},
    )
    merged = merge_fixture(_environment(), fixture)
    assert merged.files == {"docs/a.md": "A", "docs/b.md": "B"}
    assert set(merged.state.documents) == {"d-1", "d-2"}
    assert merged.state.records["tickets"] == {
        "T-1": {"status": "open"},
        "T-2": {"status": "new"},
    }
    assert merged.state.records["users"] == {"u": {}}


@pytest.mark.parametrize(
    ("fixture", "path"),
    [
        (
            FixtureContents(files={"docs/a.md": "other"}),
            '$.environment.files["docs/a.md"]',
        ),
        (
            FixtureContents(documents={"d-1": Document(title="x", content="y")}),
            "$.environment.state.documents.d-1",
        ),
        (
            FixtureContents(records={"tickets": {"T-1": {}}}),
            "$.environment.state.records.tickets.T-1",
        ),
    ],
)
def test_merge_conflicts_are_refused(fixture: FixtureContents, path: str) -> None:
    with pytest.raises(FixtureError) as caught:
        merge_fixture(_environment(), fixture)
    assert [p.path for p in caught.value.problems] == [path]


def test_merge_refuses_an_oversize_environment() -> None:
    chunk = "x" * (1024 * 1024)
    fixture = FixtureContents(files={f"f{i}.txt": chunk for i in range(65)})
    with pytest.raises(FixtureError) as caught:
        merge_fixture(_environment(), fixture)
    assert "larger than" in str(caught.value)
