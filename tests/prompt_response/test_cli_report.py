"""``akit report RUN_ID|MANIFEST``: an offline HTML page and the JSON manifest."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import TYPE_CHECKING

from tests._cli import akit
from tests.prompt_response.conftest import write_config
from tests.prompt_response.test_cli_run import stored, write_scenario

if TYPE_CHECKING:
    from pathlib import Path

    from tests.providers._chat_server import ChatServer

HOSTILE = "<script>alert(1)</script> & ok"


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
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "report-me", HOSTILE, "nope")
    akit("run", "scenarios", cwd=tmp_path)
    [path] = stored(tmp_path)
    manifest = json.loads(path.read_text(encoding="utf-8"))
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
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "json-me", "ok")
    akit("run", "scenarios", cwd=tmp_path)
    [path] = stored(tmp_path)
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
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "aim-me", "ok")
    akit("run", "scenarios", cwd=tmp_path)
    [path] = stored(tmp_path)
    manifest = json.loads(path.read_text(encoding="utf-8"))
    victim = tmp_path / "victim.html"
    victim.write_text("the user's page", "utf-8")
    for run_id in ("../victim", str(tmp_path / "victim"), "", "a" * 65, "x.y"):
        edited = tmp_path / "edited.json"
        edited.write_text(json.dumps({**manifest, "run_id": run_id}), "utf-8")
        done = akit("report", edited, cwd=tmp_path)
        assert done.returncode == 2, (run_id, done.stderr)
        assert f"{edited}: runId is not a run id" in done.stderr
        assert "Traceback" not in done.stderr
    assert victim.read_text("utf-8") == "the user's page"


def test_the_default_output_is_never_replaced(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "keep-mine", "ok")
    akit("run", "scenarios", cwd=tmp_path)
    [path] = stored(tmp_path)
    run_id = json.loads(path.read_text(encoding="utf-8"))["run_id"]
    mine = tmp_path / "artemis-output" / f"{run_id}.html"
    mine.parent.mkdir()
    mine.write_text("not made by akit", "utf-8")
    done = akit("report", run_id, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "already exists" in done.stderr
    assert mine.read_text("utf-8") == "not made by akit"
