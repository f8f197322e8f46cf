"""``akit report``: what it reads, what it refuses, what it writes (SPEC 14)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.reports._evidence import (
    HOSTILE_NAME,
    HOSTILE_REASON,
    ROOT,
    PageParts,
    akit,
    make_hostile,
    suite_json,
)

V0_RECORD = ROOT / "tests" / "records" / "fixtures" / "workflow-record.v0.json"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def test_a_suite_folder_gives_html_and_markdown(
    example_suite: Path, tmp_path: Path
) -> None:
    html, markdown = tmp_path / "report.html", tmp_path / "report.md"
    done = akit(
        "report", str(example_suite), "--html", str(html), "--markdown", str(markdown)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert f"html report: {html}" in done.stderr
    page = html.read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>")
    parts = PageParts(page)
    # The run data and the viewer, inline: no script is loaded from anywhere.
    assert parts.scripts == [
        "",
        'type="application/json" id="artemiskit-data" data-encoding="json" '
        'data-sensitive="false"',
    ]
    assert "http://" not in page.replace("http://www.w3.org/", "")
    assert "https://" not in page
    assert "default-src &#39;none&#39;" in page
    summary = markdown.read_text("utf-8")
    for workflow in suite_json(example_suite)["workflows"]:
        interval = workflow["pass_rate_interval"]
        row = (
            f"| {workflow['name']} | {_pct(workflow['pass_rate'])} "
            f"| {_pct(interval['low'])} – {_pct(interval['high'])} "
            f"| {workflow['passed']} | {workflow['failed']} "
        )
        assert row in summary


def test_suite_json_and_its_folder_give_the_same_report(example_suite: Path) -> None:
    by_folder = akit("report", str(example_suite))
    by_file = akit("report", str(example_suite / "suite.json"))
    assert by_folder.returncode == by_file.returncode == 0
    assert by_folder.stdout == by_file.stdout
    assert by_folder.stdout.startswith("## ArtemisKit report")
    assert "answer | 60.0% | 23.1% – 88.2% | 3 | 2 | 0 |" in by_folder.stdout


def _older(current: dict[str, Any], version: int) -> dict[str, Any]:
    """``current`` as the record of an older schema version would have it."""
    dropped = {"timeline", "verdict"} | ({"recovery"} if version < 2 else set())
    older = {k: v for k, v in current.items() if k not in dropped}
    older["target"] = {
        k: v
        for k, v in current["target"].items()
        if k not in ("provider_retries", "id")
    }
    if version < 2:
        old_tools = ("read_file", "write_file")
        older["tools"] = [t for t in older["tools"] if t["tool"] in old_tools]
    # Another attempt than ``current``'s, whatever its id begins with.
    first = [c for c in "0123456789abcdef" if c != current["attempt_id"][0]][version]
    attempt = first + current["attempt_id"][1:]
    return {**older, "schema_version": version, "attempt_id": attempt}


def test_records_of_every_schema_version_are_read(
    example_suite: Path, tmp_path: Path
) -> None:
    v3 = example_suite / "runs" / "answer" / "001.record.json"
    current = json.loads(v3.read_text("utf-8"))
    assert current["schema_version"] == 4
    given = [str(V0_RECORD), str(v3)]
    for version in (1, 2):
        path = tmp_path / f"v{version}.record.json"
        path.write_text(json.dumps(_older(current, version)), "utf-8")
        given.append(str(path))
    html = tmp_path / "records.html"
    done = akit("report", *given, "--html", str(html))
    assert done.returncode == 0, done.stderr
    shown = akit("report", *given).stdout
    assert "Read from record files (no suite record)." in shown
    # The 0.6.1 record predates task verification: its run is unavailable.
    assert "| quickstart | n/a | n/a | 0 | 0 | 0 | 1 | 0.0% – 100.0% |" in shown
    assert "| answer | 100.0% | 43.9% – 100.0% | 3 | 0 | 0 | 0 | – |" in shown
    # Records from before schema version 4 derive their verdict, not its cause.
    assert "| 1 | unavailable | not recorded | 0 |" in shown
    parts = PageParts(html.read_text("utf-8"))
    strings = parts.strings()
    assert "predates_task_verification" in strings
    # The version 3 record shows its operations in order; older ones their counts.
    assert "#2 tool call read_file" in strings
    # A detail's last item says whether its record kept operations in order.
    assert sorted({detail[5] for detail in parts.data["dt"]}) == [0, 1]


def _write(path: Path, data: object) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    return path


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ({"hello": 1}, "a JSON object without a `schema` field"),
        ([1, 2], "a JSON array, not ArtemisKit workflow evidence"),
        ({"schema": "acme.other"}, "a JSON file of schema 'acme.other'"),
        ("{\n  nope", ":2:3: $: not JSON"),
        (
            {"schema": "artemiskit.transcript", "run_id": "r", "messages": []},
            "a transcript (sensitive working data)",
        ),
        (
            {"schema": "artemiskit.workflow-record", "schema_version": 99},
            "unknown workflow record schema_version",
        ),
        (
            {"schema": "artemiskit.suite-record", "schema_version": 1},
            "invalid suite record",
        ),
    ],
)
def test_anything_else_is_refused_saying_what_it_is(
    tmp_path: Path, content: object, said: str
) -> None:
    path = _write(tmp_path / "given.json", content)
    html = tmp_path / "out.html"
    done = akit("report", str(path), "--html", str(html))
    assert done.returncode == 2, done.stderr
    first = done.stderr.splitlines()[0]
    assert first.startswith(str(path))
    assert said in first
    assert "Traceback" not in done.stderr
    assert not html.exists()


_MANIFEST = {
    "version": "1.0",
    "run_id": "abc",
    "config": {},
    "metrics": {},
    "cases": [],
}


def test_a_manifest_among_workflow_evidence_is_refused(
    example_suite: Path, tmp_path: Path
) -> None:
    record = example_suite / "runs" / "answer" / "001.record.json"
    manifest = _write(tmp_path / "run.json", _MANIFEST)
    done = akit("report", str(record), str(manifest))
    assert done.returncode == 2
    assert "a prompt-response run manifest (SPEC 17)" in done.stderr
    assert "report it alone: `akit report MANIFEST`" in done.stderr


def test_options_of_the_other_kind_of_report_are_usage_errors(
    example_suite: Path, tmp_path: Path
) -> None:
    manifest = _write(tmp_path / "run.json", _MANIFEST)
    for args in (
        [str(example_suite), "--json", str(tmp_path / "out.json")],
        [str(manifest), "--markdown", str(tmp_path / "out.md")],
        ["some-run-id", "--transcripts", str(tmp_path)],
    ):
        done = akit("report", *args)
        assert done.returncode == 2, args
        assert "apply to" in done.stderr
        assert not (tmp_path / "out.json").exists()
        assert not (tmp_path / "out.md").exists()


def test_a_folder_without_suite_json_is_refused(tmp_path: Path) -> None:
    done = akit("report", str(tmp_path))
    assert done.returncode == 2
    assert f"{tmp_path}: $: a folder without suite.json" in done.stderr


def test_a_suite_with_records_is_refused(example_suite: Path) -> None:
    record = example_suite / "runs" / "answer" / "001.record.json"
    done = akit("report", str(example_suite), str(record))
    assert done.returncode == 2
    assert "give suites (folders or suite.json files), or record files, not both" in (
        done.stderr
    )


def test_a_record_given_twice_is_refused(example_suite: Path, tmp_path: Path) -> None:
    record = example_suite / "runs" / "answer" / "001.record.json"
    copy = _write(tmp_path / "copy.json", record.read_text("utf-8"))
    done = akit("report", str(record), str(copy))
    assert done.returncode == 2
    assert f"{copy}: $: the same run attempt as {record}" in done.stderr


def test_an_unreadable_file_is_exit_1(tmp_path: Path) -> None:
    done = akit("report", str(tmp_path / "absent.json"))
    assert done.returncode == 1
    assert f"cannot read evidence file {tmp_path / 'absent.json'}" in done.stderr


def test_outputs_must_be_new(example_suite: Path, tmp_path: Path) -> None:
    html = _write(tmp_path / "report.html", "keep me")
    markdown = tmp_path / "report.md"
    done = akit(
        "report", str(example_suite), "--html", str(html), "--markdown", str(markdown)
    )
    assert done.returncode == 1
    assert "already exists" in done.stderr
    assert html.read_text("utf-8") == "keep me"
    assert not markdown.exists()


def test_a_record_outside_the_suite_folder_is_refused(
    suite_copy: Path, tmp_path: Path
) -> None:
    record = suite_copy / "runs" / "answer" / "001.record.json"
    outside = tmp_path / "elsewhere.record.json"
    record.rename(outside)
    record.symlink_to(outside)
    done = akit("report", str(suite_copy))
    assert done.returncode == 2
    assert "lies outside the suite folder" in done.stderr


def test_an_absent_record_is_shown_as_absent(suite_copy: Path, tmp_path: Path) -> None:
    (suite_copy / "runs" / "answer" / "002.record.json").unlink()
    html = tmp_path / "r.html"
    done = akit("report", str(suite_copy), "--html", str(html))
    assert done.returncode == 0, done.stderr
    parts = PageParts(html.read_text("utf-8"))
    runs = parts.data["r"]
    missing = [n for n, lost in enumerate(runs["l"]) if lost == 2]
    assert len(missing) == 1
    assert runs["z"][missing[0]] == -1
    assert runs["n"][missing[0]] == 2


NO_EXTRA = """
import sys
class Missing:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"jinja2", "matplotlib"}:
            raise ImportError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, Missing())
sys.argv = ["akit", *sys.argv[1:]]
from artemiskit_cli._main import main
main()
"""


def test_html_without_the_extra_is_exit_1_with_the_hint(
    example_suite: Path, tmp_path: Path
) -> None:
    html = tmp_path / "r.html"

    def without_extra(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", NO_EXTRA, *args],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
            cwd=ROOT,
        )

    done = without_extra("report", str(example_suite), "--html", str(html))
    assert done.returncode == 1
    assert "pip install 'artemiskit[report]'" in done.stderr
    assert "Traceback" not in done.stderr
    assert not html.exists()
    markdown_only = without_extra("report", str(example_suite))
    assert markdown_only.returncode == 0, markdown_only.stderr
    assert markdown_only.stdout.startswith("## ArtemisKit report")


# Text that only the transcripts hold: the draft's body and a fixture's content.
TRANSCRIPT_ONLY = ("sorry about the broken mug", "What is six times seven?")


def test_transcripts_appear_only_when_asked_under_a_banner(
    example_suite: Path, tmp_path: Path
) -> None:
    plain, private = tmp_path / "plain.html", tmp_path / "private.html"
    assert akit("report", str(example_suite), "--html", str(plain)).returncode == 0
    page = plain.read_text("utf-8")
    assert not [text for text in TRANSCRIPT_ONLY if text in page]
    assert "tx" not in PageParts(page).data
    assert 'id="sensitive-banner"' not in page
    assert 'data-sensitive="false"' in page
    done = akit(
        "report",
        str(example_suite),
        "--transcripts",
        str(example_suite / "transcripts"),
        "--html",
        str(private),
    )
    assert done.returncode == 0, done.stderr
    page = private.read_text("utf-8")
    shown = "\n".join(PageParts(page).strings())
    assert all(text in shown for text in TRANSCRIPT_ONLY)
    assert 'id="sensitive-banner"' in page
    assert stat.S_IMODE(os.stat(private).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(plain).st_mode) == 0o644


def test_every_record_string_is_escaped(suite_copy: Path, tmp_path: Path) -> None:
    make_hostile(suite_copy)
    html, markdown = tmp_path / "h.html", tmp_path / "h.md"
    done = akit(
        "report", str(suite_copy), "--html", str(html), "--markdown", str(markdown)
    )
    assert done.returncode == 0, done.stderr
    page = html.read_text("utf-8")
    parts = PageParts(page)
    assert "<script" not in parts.markup.replace("<script></script>", "", 1).replace(
        '<script type="application/json" id="artemiskit-data"', ""
    )
    assert "<img" not in page
    assert "&lt;script&gt;alert(&#34;name&#34;)&lt;/script&gt;" in page
    assert HOSTILE_REASON[:40] not in page
    # In the run data, the name is JSON whose markup characters are escapes.
    assert HOSTILE_NAME in parts.strings()
    assert "<" not in parts.data_text
    summary = markdown.read_text("utf-8")
    assert "<script" not in summary
    assert "<img" not in summary
    assert '&lt;script&gt;alert\\(\\"name\\"\\)&lt;/script&gt;' not in summary
    assert "&lt;script&gt;alert\\(" in summary
    assert HOSTILE_NAME not in summary


def test_transcript_text_is_escaped_too(suite_copy: Path, tmp_path: Path) -> None:
    transcript = suite_copy / "transcripts" / "answer" / "001.transcript.json"
    data = json.loads(transcript.read_text("utf-8"))
    data["messages"][0]["content"] = "<script>alert('t')</script><b>bold</b>"
    data["messages"][2]["tool_calls"][0]["name"] = '"><img src=x>'
    transcript.write_text(json.dumps(data), "utf-8")
    html = tmp_path / "t.html"
    done = akit(
        "report",
        str(suite_copy),
        "--transcripts",
        str(suite_copy / "transcripts"),
        "--html",
        str(html),
    )
    assert done.returncode == 0, done.stderr
    page = html.read_text("utf-8")
    assert "<img" not in page
    assert "<b>bold" not in page
    assert "alert('t')</script>" not in page
    # The transcript is data, drawn as text by the viewer (the browser tests).
    assert "<script>alert('t')</script><b>bold</b>" in PageParts(page).strings()


def test_the_same_evidence_gives_the_same_bytes(
    example_suite: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "1.html", tmp_path / "2.html"
    assert akit("report", str(example_suite), "--html", str(first)).returncode == 0
    assert akit("report", str(example_suite), "--html", str(second)).returncode == 0
    assert first.read_bytes() == second.read_bytes()
