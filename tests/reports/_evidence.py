"""Suite folders and records for report tests, made by the real ``akit``."""

from __future__ import annotations

import base64
import gzip
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from artemiskit.suites import pass_at_k, pass_hat_k, wilson_interval
from tests import _cli

if TYPE_CHECKING:
    from collections.abc import Sequence

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120
#: The report tests' suite: ``examples/flaky`` (the ``answer`` workflow, which fails
#: repetitions 2 and 5 by design) and ``examples/suite`` (two that always pass), in
#: this order, so a report shows a pass rate between 0 and 1 beside two at 100%.
EXAMPLE_SUITE = (ROOT / "examples" / "flaky", ROOT / "examples" / "suite")


def akit(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``akit`` (in-process, tests/_cli.py) in ``cwd`` (default: the checkout)."""
    return _cli.akit(*args, cwd=cwd or ROOT)


def run_suite(
    source: Path | Sequence[Path], output: Path, *extra: str, repeat: int = 5
) -> dict[str, Any]:
    """Run a suite of one or several paths into ``output``; its ``suite.json``."""
    sources = [source] if isinstance(source, Path) else list(source)
    done = akit(
        "workflow",
        "run",
        *map(str, sources),
        "--repeat",
        str(repeat),
        "--output-dir",
        str(output),
        "--quiet",
        *extra,
    )
    assert done.returncode in (0, 8), done.stderr
    suite: dict[str, Any] = json.loads((output / "suite.json").read_text("utf-8"))
    return suite


def worsened_suite(root: Path) -> Path:
    """`EXAMPLE_SUITE` copied into one folder, its triage script filing wrongly."""
    copy = root / "worse"
    for source in EXAMPLE_SUITE:
        shutil.copytree(source, copy / source.name)
    script = copy / "suite" / "triage" / "triage.script.yaml"
    text = script.read_text("utf-8")
    assert "category: refund" in text
    script.write_text(text.replace("category: refund", "category: shipping"), "utf-8")
    return copy


def suite_json(folder: Path) -> dict[str, Any]:
    """The suite record of ``folder``."""
    data: dict[str, Any] = json.loads((folder / "suite.json").read_text("utf-8"))
    return data


HOSTILE_NAME = '<script>alert("name")</script>\'"&<b>' + "W" * 80
HOSTILE_REQUIREMENT = "<img src=x onerror=alert(1)>\"'" + "R" * 90
HOSTILE_REASON = "<script>alert('reason')</script>" + "x" * 4000
HOSTILE_EXECUTION = '"><script>alert(3)</script>' + "e" * 500


def make_hostile(folder: Path) -> None:
    """Fill a suite folder's strings with markup, quotes and very long text.

    Every string stays valid for its schema: the suite record's free strings
    (workflow name, failure reason codes, execution reasons) and the records'
    workflow names and requirement ids.
    """
    suite = suite_json(folder)
    workflow = suite["workflows"][0]
    old_name = workflow["name"]
    workflow["name"] = HOSTILE_NAME
    workflow["failure_reasons"] = {HOSTILE_REASON: 2, "plain_reason": 1}
    requirement = workflow["requirements"][0]["id"]
    workflow["requirements"][0]["id"] = HOSTILE_REQUIREMENT
    for run in workflow["runs"]:
        run["execution_reason"] = HOSTILE_EXECUTION
        record_path = folder / run["record"]
        record = json.loads(record_path.read_text("utf-8"))
        assert record["workflow"]["name"] == old_name
        record["workflow"]["name"] = HOSTILE_NAME
        for entry in record["task_verification"]["requirements"]:
            if entry["id"] == requirement:
                entry["id"] = HOSTILE_REQUIREMENT
        record_path.write_text(json.dumps(record), "utf-8")
    (folder / "suite.json").write_text(json.dumps(suite), "utf-8")


def set_counts(
    suite: dict[str, Any], workflow: dict[str, Any], passed: int, failed: int
) -> None:
    """Give a workflow entry (and its one unit) other counts and their statistics."""
    interval = wilson_interval(passed, passed + failed)
    (unit,) = [u for u in suite["units"] if u["workflow"] == workflow["name"]]
    for entry in (workflow, unit):
        _set_counts(entry, passed, failed, interval)


def _set_counts(
    workflow: dict[str, Any], passed: int, failed: int, interval: Any
) -> None:
    workflow.update(
        passed=passed,
        failed=failed,
        pass_rate=None if interval is None else passed / (passed + failed),
        pass_rate_interval=None
        if interval is None
        else {
            "low": interval.low,
            "high": interval.high,
            "method": "wilson",
            "confidence": 0.95,
        },
        pass_at_k=pass_at_k(passed, passed + failed),
        pass_hat_k=pass_hat_k(passed, passed + failed),
    )


class PageParts:
    """A report page split into its markup, its inline script and its run data.

    Attributes:
        markup: The page without the text of its two script elements.
        scripts: Each script element's attributes, in order.
        data_text: The embedded run data as JSON text (inflated when gzipped).
        data: The embedded run data.
    """

    def __init__(self, page: str) -> None:
        found = re.findall(r"<script([^>]*)>(.*?)</script>", page, flags=re.S)
        self.markup = re.sub(
            r"(<script[^>]*>).*?(</script>)", r"\1\2", page, flags=re.S
        )
        self.scripts = [attributes.strip() for attributes, _ in found]
        data = [(a, text) for a, text in found if 'id="artemiskit-data"' in a]
        assert len(data) == 1
        attributes, text = data[0]
        if 'data-encoding="gzip"' in attributes:
            self.data_text = gzip.decompress(base64.b64decode(text)).decode("utf-8")
        else:
            self.data_text = text
        self.data: dict[str, Any] = json.loads(self.data_text)

    def strings(self) -> list[str]:
        """Every string the run data holds (its string table and transcripts)."""
        found: list[str] = list(self.data["s"])
        for steps in self.data.get("tx", {}).values():
            for role, content, calls, _ in steps or ():
                found += [role, content, *(part for call in calls for part in call)]
        return found
