"""The manifest and the outputs of a fixed offline run, byte for byte.

``golden/scenario.yaml`` runs against the scripted model ``golden/golden.script.yaml``
through ``akit run --export junit --export markdown --ci``, then with the text
summary, ``--summary json`` and ``--summary security``, and the stored manifest
(volatile fields set to fixed values) is reported with ``akit report MANIFEST --html
--json``. What changes between runs (run id, times, latencies, git, user,
interpreter) is normalised, and the rest must equal the files in ``golden/``, so that
moving code around cannot change an output CI scripts read. The HTML page is
compared as its outline (`html_outline`: elements with their identifying attributes,
and text; a chart as its title, since the drawing depends on matplotlib's version;
the stylesheet through its CSP hash). After a deliberate format change, regenerate
them with ``ARTEMISKIT_UPDATE_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from tests._cli import akit

GOLDEN = Path(__file__).parent / "golden"
_VOLATILE_CASE_KEYS = ("latencyMs",)
_VOLATILE_METRICS = ("median_latency_ms", "p95_latency_ms")
#: What a report of the stored manifest is made from: its volatile fields set to
#: fixed values a manifest may hold.
_FIXED = {
    "run_id": "golden000000",
    "start_time": "2026-01-01T00:00:00.000Z",
    "end_time": "2026-01-01T00:00:00.000Z",
    "duration_ms": 0,
    "git": {"commit": "0" * 40, "branch": "main", "dirty": False},
    "provenance": {"run_by": "user"},
    "environment": {"python_version": "3", "platform": "linux", "arch": "x64"},
}


def _manifest(text: str) -> str:
    data: dict[str, Any] = json.loads(text)
    data |= {
        "run_id": "RUN_ID",
        "start_time": "START",
        "end_time": "END",
        "duration_ms": 0,
        "git": {"commit": "COMMIT", "branch": "BRANCH", "dirty": False},
        "provenance": {"run_by": "USER"},
        "environment": {"python_version": "PY", "platform": "OS", "arch": "ARCH"},
    }
    _fix_latencies(data)
    return json.dumps(data, indent=2, ensure_ascii=False)


def _fix_latencies(data: dict[str, Any]) -> None:
    for key in _VOLATILE_METRICS:
        data["metrics"][key] = 0
    for case in data["cases"]:
        for key in _VOLATILE_CASE_KEYS:
            case[key] = 0


def _fixed_manifest(text: str) -> str:
    """The manifest with `_FIXED` values: still a manifest `akit report` reads."""
    data: dict[str, Any] = json.loads(text) | _FIXED
    _fix_latencies(data)
    return json.dumps(data, indent=2, ensure_ascii=False)


def _summary(text: str, run_id: str) -> str:
    """``--summary json``: durations zeroed, the run id named."""
    text = text.replace(run_id, "RUN_ID")
    text = re.sub(r'"(totalMs|durationMs)": \d+', r'"\1": 0', text)
    return re.sub(r'"formatted": "\d+ms"', '"formatted": "0ms"', text)


class _Outline(HTMLParser):
    """An HTML page as lines: each element with its identifying attributes, and
    each text, indented by depth; an ``svg`` as its element and title only."""

    _VOID = frozenset({"meta", "br", "img", "input", "link", "hr", "wbr", "col"})
    _SHOWN = frozenset(
        {"id", "class", "role", "href", "lang", "name", "content", "colspan"}
        | {"aria-labelledby", "scope", "value", "max", "min", "title", "open"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._depth = 0
        self._svg_depth = 0  # inside an svg: its nesting, else 0
        self._text_shown = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._svg_depth:
            self._svg_depth += tag not in self._VOID
            self._text_shown = tag == "title"
            return
        shown = " ".join(
            f'{key}="{value}"' if value is not None else key
            for key, value in attrs
            if key in self._SHOWN or key.startswith("data-")
        )
        self.lines.append("  " * self._depth + f"<{tag}{' ' * bool(shown)}{shown}>")
        if tag == "svg":
            self._svg_depth, self._text_shown = 1, False
        if tag not in self._VOID:
            self._depth += 1
        self._text_shown = tag not in ("style", "svg")

    def handle_endtag(self, tag: str) -> None:
        if self._svg_depth:
            self._svg_depth -= 1
            self._text_shown = False
            if self._svg_depth:
                return
        if tag not in self._VOID:
            self._depth -= 1
        self._text_shown = True

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and self._text_shown:
            self.lines.append("  " * self._depth + repr(text))


def html_outline(page: str) -> str:
    """The outline of an HTML page (see `_Outline`), ArtemisKit's version named."""
    outline = _Outline()
    outline.feed(page)
    text = "\n".join(outline.lines) + "\n"
    return re.sub(r"(Made by ArtemisKit) \S+ (from)", r"\1 VERSION \2", text)


def _junit(text: str, run_id: str) -> str:
    text = text.replace(run_id, "RUN_ID")
    text = re.sub(r'time="[0-9.]+"', 'time="0"', text)
    return re.sub(r'timestamp="[^"]+"', 'timestamp="START"', text)


def _markdown(text: str, run_id: str) -> str:
    text = text.replace(run_id, "RUN_ID")
    text = re.sub(r"\*\*Date:\*\* \S+", "**Date:** START", text)
    text = re.sub(r"\| Duration \| [^|]+\|", "| Duration | 0ms |", text)
    text = re.sub(r"\| (Median|P95) Latency \| \d+ms \|", r"| \1 Latency | 0ms |", text)
    return re.sub(r"\| (\d+)ms \| (\d+) \|", r"| 0ms | \2 |", text)


def test_the_manifest_and_exports_of_a_fixed_run_keep_their_bytes(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    for name in ("scenario.yaml", "golden.script.yaml"):
        shutil.copy(GOLDEN / name, folder / name)
    done = akit(
        "run",
        "scenarios",
        "--export",
        "junit",
        "--export",
        "markdown",
        "--ci",
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr
    [stored] = (tmp_path / "artemis-runs" / "default").glob("*.json")
    run_id = stored.stem
    exports = tmp_path / "artemis-exports"
    produced = {
        "manifest.json": _manifest(stored.read_text("utf-8")),
        "junit.xml": _junit((exports / f"{run_id}.xml").read_text("utf-8"), run_id),
        "report.md": _markdown((exports / f"{run_id}.md").read_text("utf-8"), run_id),
        "ci.txt": done.stdout.replace(run_id, "RUN_ID"),
    }
    produced["ci.txt"] = re.sub(
        r"ARTEMISKIT_DURATION_MS=\d+", "ARTEMISKIT_DURATION_MS=0", produced["ci.txt"]
    )
    produced |= _summaries(tmp_path)
    produced |= _reports(tmp_path, stored)
    if os.environ.get("ARTEMISKIT_UPDATE_GOLDEN") == "1":
        for name, text in produced.items():
            (GOLDEN / name).write_text(text, encoding="utf-8")
    for name, text in produced.items():
        assert text == (GOLDEN / name).read_text("utf-8"), name


def _summaries(folder: Path) -> dict[str, str]:
    """The text summary (stderr), ``--summary json`` and ``--summary security``."""
    done = akit("run", "scenarios", "--no-save", cwd=folder)
    assert done.returncode == 1, done.stderr
    text = re.sub(r"Run ID: \S+", "Run ID: RUN_ID", done.stderr)
    text = re.sub(r"(Duration|Median Latency): \d+ms", r"\1: 0ms", text)
    produced = {"summary-text.txt": re.sub(r" \d+ms \[", " 0ms [", text)}
    for kind in ("json", "security"):
        done = akit("run", "scenarios", "--summary", kind, "--no-save", cwd=folder)
        assert done.returncode == 1, done.stderr
        runs = json.loads(done.stdout).get("runs", [])  # security has no run list
        run_id = runs[0]["runId"] if runs else "RUN_ID"
        produced[f"summary-{kind}.json"] = _summary(done.stdout, run_id)
    return produced


def _reports(folder: Path, stored: Path) -> dict[str, str]:
    """``akit report MANIFEST --html --json`` of the manifest with `_FIXED` values."""
    manifest = folder / "fixed.json"
    manifest.write_text(_fixed_manifest(stored.read_text("utf-8")), encoding="utf-8")
    html, pretty = folder / "report.html", folder / "report.json"
    done = akit("report", manifest, "--html", html, "--json", pretty, cwd=folder)
    assert done.returncode == 0, done.stderr
    return {
        "report.html.outline": html_outline(html.read_text("utf-8")),
        "report.json": pretty.read_text("utf-8"),
    }
