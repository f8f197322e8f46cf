"""Hostile workflow names reach CI and terminals only escaped (issue 28 item 16).

The name carries a carriage return and a Markdown heading, HTML with a link, an
OSC sequence that sets a terminal's title, a NUL, a C1 control and a
right-to-left override. The Markdown summary, the JUnit XML and the progress
lines (piped) must show it only as inert text.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import xmlschema

from artemiskit.suites import load_suite_record
from tests._builders import PASSING_SCRIPT
from tests.suites._suites import FAILING_SCRIPT, write_member

HOSTILE = (
    "w | c\r# Injected heading\n<a href='https://e.invalid'>c</a>\x1b]0;owned\x07"
    "\x1b]8;;https://e.invalid\x1b\\l\x00\x9b2J\u202er $x$ [x](https://e.invalid)"
)
RAW = ("\r", "\x1b", "\x07", "\x00", "\x9b", "\u202e")
JUNIT_XSD = Path(__file__).parent / "fixtures" / "junit.xsd"


def _run(tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    suite = tmp_path / "suite"
    write_member(suite, HOSTILE, [PASSING_SCRIPT, FAILING_SCRIPT], folder_name="h")
    out = tmp_path / "out"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "artemiskit_cli", "workflow", "run", str(suite)),
            *("--repeat", "2", "--output-dir", str(out)),
            *("--junit", str(tmp_path / "junit.xml")),
            *("--markdown", str(tmp_path / "s.md")),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return done, out


def test_hostile_names_are_inert_in_exports_and_progress(tmp_path: Path) -> None:
    done, out = _run(tmp_path)
    assert done.returncode == 8, done.stderr
    assert load_suite_record(out / "suite.json")["workflows"][0]["name"] == HOSTILE
    # Progress lines and the summary, piped: no control character at all.
    for character in RAW:
        assert character not in done.stderr
    assert "\\x1b]0;owned\\x07" in done.stderr
    assert "#002: failed" in done.stderr
    # JUnit: well-formed XML that the Jenkins schema accepts, name shown inert.
    junit = (tmp_path / "junit.xml").read_text("utf-8")
    root = ElementTree.fromstring(junit)
    xmlschema.XMLSchema(JUNIT_XSD).validate(root)
    names = {element.get("name") for element in root.iter("testsuite")}
    assert len(names) == 1
    (name,) = names
    assert name is not None
    for character in RAW:
        assert character not in name
    # Markdown: no HTML, no line of its own, no link, heading or math.
    summary = (tmp_path / "s.md").read_text("utf-8")
    for character in RAW:
        assert character not in summary
    assert "<a" not in summary
    assert "](" not in summary.replace("\\](", "")
    assert not [
        line
        for line in summary.splitlines()
        if "Injected" in line and line.startswith("#")
    ]
    row = next(line for line in summary.splitlines() if "Injected heading" in line)
    assert "w \\| c \\# Injected heading &lt;a href\\=\\'https\\:" in row
    assert row.count(" | ") == 6  # the pipe in the name is escaped: 7 cells
