"""``akit report RUN_ID|MANIFEST``: an offline HTML page and the JSON manifest."""

from __future__ import annotations

import json
import os
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests._cli import akit
from tests.prompt_response.conftest import write_config
from tests.prompt_response.test_cli_run import stored, write_scenario

if TYPE_CHECKING:
    from tests.providers._chat_server import ChatServer

HOSTILE = "<script>alert(1)</script> & ok"


def run_and_store(
    server: ChatServer, folder: Path, name: str, *answers: str
) -> tuple[Path, dict[str, Any]]:
    """``akit run`` one scenario in ``folder``: the stored manifest and its data."""
    write_config(folder, server.url)
    write_scenario(folder, name, *answers)
    akit("run", "scenarios", cwd=folder)
    [path] = stored(folder)
    return path, json.loads(path.read_text(encoding="utf-8"))


class Page(HTMLParser):
    """Tags, attributes and the text of elements with an id."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.by_id: dict[str, str] = {}
        self._open: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += attrs
        self._open = dict(attrs).get("id")

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self.by_id[self._open] = self.by_id.get(self._open, "") + data

    def handle_endtag(self, tag: str) -> None:
        self._open = None


def test_the_html_report_is_offline_escaped_and_shows_the_manifest_numbers(
    model_server: ChatServer, tmp_path: Path
) -> None:
    _, manifest = run_and_store(model_server, tmp_path, "report-me", HOSTILE, "nope")
    done = akit("report", manifest["run_id"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "artemis-output" / f"{manifest['run_id']}.html").read_text(
        "utf-8"
    )
    page = Page()
    page.feed(html)
    assert "script" not in page.tags
    assert page.tags.count("svg") == 2
    assert not [
        value
        for name, value in page.attributes
        if name in {"src", "href"} and value and not value.startswith("#")
    ]
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; ok" in html
    assert page.by_id["success-rate"] == "50.0%"
    assert page.by_id["passed"] == "1 / 2"
    assert page.by_id["total-tokens"] == str(manifest["metrics"]["total_tokens"])


def test_json_output_and_the_refusals(model_server: ChatServer, tmp_path: Path) -> None:
    path, _ = run_and_store(model_server, tmp_path, "json-me", "ok")
    out = tmp_path / "report.json"
    done = akit("report", path, "--json", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text("utf-8")) == json.loads(path.read_text("utf-8"))
    assert out.stat().st_mode & 0o077 == 0
    again = akit("report", path, "--json", out, cwd=tmp_path)
    assert again.returncode == 1
    record = tmp_path / "suite.json"
    record.write_text(json.dumps({"schema": "artemiskit.suite-record"}), "utf-8")
    refused = akit("report", record, cwd=tmp_path)
    assert refused.returncode == 2
    assert "suite record" in refused.stderr
    assert akit("report", "NoSuchRun123", cwd=tmp_path).returncode == 1


def test_a_manifest_run_id_never_names_a_file_outside_the_output_folder(
    model_server: ChatServer, tmp_path: Path
) -> None:
    _, manifest = run_and_store(model_server, tmp_path, "aim-me", "ok")
    victim = tmp_path / "victim.html"
    victim.write_text("the user's page", "utf-8")
    for run_id in ("../victim", str(tmp_path / "victim"), "", "a" * 65, "x.y"):
        edited = tmp_path / "edited.json"
        edited.write_text(json.dumps({**manifest, "run_id": run_id}), "utf-8")
        done = akit("report", edited, cwd=tmp_path)
        assert done.returncode == 2, (run_id, done.stderr)
        # Refused when read (the store's rule) or before naming a file.
        assert f"{edited}: runId is not a run id" in done.stderr or (
            f"{edited}: the run id is not a safe file name" in done.stderr
        )
        assert "Traceback" not in done.stderr
    assert victim.read_text("utf-8") == "the user's page"


def test_the_default_output_is_never_replaced(
    model_server: ChatServer, tmp_path: Path
) -> None:
    run_id = run_and_store(model_server, tmp_path, "keep-mine", "ok")[1]["run_id"]
    mine = tmp_path / "artemis-output" / f"{run_id}.html"
    mine.parent.mkdir()
    mine.write_text("not made by akit", "utf-8")
    done = akit("report", run_id, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "already exists" in done.stderr
    assert mine.read_text("utf-8") == "not made by akit"


def test_case_ids_are_never_parsed_as_math(
    model_server: ChatServer, tmp_path: Path
) -> None:
    _, manifest = run_and_store(model_server, tmp_path, "mathy", "ok")
    for case, name in zip(manifest["cases"], ["$\\frac{1}$ $^_$", "$x$"], strict=False):
        case["id"] = name
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(manifest), "utf-8")
    html = tmp_path / "page.html"
    done = akit("report", edited, "--html", html, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "$\\frac{1}$ $^_$" in html.read_text("utf-8")


GOLDEN_MANIFEST = Path(__file__).parent / "golden" / "manifest.json"

#: Text put in front of the manifest's metrics, and what the refusal says.
_NOT_STRICT_JSON = {
    "deep nesting": ("[" * 5000 + "]" * 5000, "nests deeper than 256"),
    "middling nesting": ("[" * 300 + "]" * 300, "nests deeper than 256"),
    "huge integer": ("9" * 5000, "outside the 64-bit range"),
    "nan": ("NaN", "holds NaN"),
    "overflow": ("1e400", "too large to represent"),
}


def _spoiled_manifest(folder: Path, value: str) -> Path:
    text = GOLDEN_MANIFEST.read_text("utf-8")
    before, anchor, after = text.partition('"metrics": {')
    path = folder / "spoiled.json"
    path.write_text(f'{before}{anchor}"extra": {value}, {after}', "utf-8")
    return path


@pytest.mark.parametrize("case", sorted(_NOT_STRICT_JSON))
def test_a_manifest_that_is_not_strict_json_is_refused_by_file_and_by_run_id(
    tmp_path: Path, case: str
) -> None:
    value, said = _NOT_STRICT_JSON[case]
    path = _spoiled_manifest(tmp_path, value)
    done = akit("report", path, "--html", tmp_path / "r.html", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"{path}: " in done.stderr
    assert said in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "r.html").exists()
    # The same file in the store, reported by its run id.
    stored_path = tmp_path / "artemis-runs" / "default" / "RUN_ID.json"
    stored_path.parent.mkdir(parents=True)
    path.rename(stored_path)
    by_id = akit("report", "RUN_ID", cwd=tmp_path)
    assert by_id.returncode == 2, by_id.stderr
    assert said in by_id.stderr
    assert "Traceback" not in by_id.stderr
    assert not (tmp_path / "artemis-output").exists()


@pytest.mark.parametrize("where", ["success_rate", "cost"])
@pytest.mark.parametrize("value", [1e308, -1e308, 1e21, 123456789.123456789])
def test_a_huge_but_finite_number_is_formatted_as_javascript_does(
    tmp_path: Path, where: str, value: float
) -> None:
    manifest = json.loads(GOLDEN_MANIFEST.read_text("utf-8"))
    if where == "cost":
        manifest["metrics"]["cost"]["total_usd"] = value
    else:
        manifest["metrics"]["success_rate"] = value
        manifest["cases"][0]["score"] = value
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(manifest), "utf-8")
    done = akit("report", path, "--html", tmp_path / "r.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_a_manifest_fifo_or_symlink_loop_is_refused_without_waiting(
    tmp_path: Path,
) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.symlink_to(second)
    second.symlink_to(first)
    for given, code in ((fifo, 1), (first, 2)):
        done = akit("report", given, cwd=tmp_path)
        assert done.returncode == code, done.stderr
        assert f"{given}: " in done.stderr
        assert "Traceback" not in done.stderr


def test_a_lone_surrogate_a_model_answered_is_kept_and_reported(
    tmp_path: Path,
) -> None:
    # Models can answer a lone surrogate; the store escapes it and reads it back.
    path = _spoiled_manifest(tmp_path, '"\\udc80"')
    done = akit("report", path, "--html", tmp_path / "r.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "r.html").exists()
