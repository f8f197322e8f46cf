"""``akit workflow run PATH... --output-dir DIR`` with real subprocesses (SPEC 13)."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import anyio
import pytest
import xmlschema

from artemiskit.suites import load_suite_record
from tests._builders import PASSING_SCRIPT
from tests._cli import AKIT, akit, akit_process
from tests.suites._suites import SLOW_SCRIPT, write_member, write_suite

ROOT = Path(__file__).resolve().parents[2]
JUNIT_XSD = Path(__file__).parent / "fixtures" / "junit.xsd"


def _markdown_rows(text: str) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 9:
            rows[cells[0]] = cells[1:]
    return rows


def test_example_suite_as_typed_and_exports_agree(tmp_path: Path) -> None:
    examples = tmp_path / "examples"
    examples.symlink_to(ROOT / "examples")
    done = akit(
        "workflow",
        "run",
        "examples/flaky",
        "examples/suite",
        "--repeat",
        "5",
        "--output-dir",
        "out",
        "--junit",
        "out/junit.xml",
        "--markdown",
        "out/summary.md",
        cwd=tmp_path,
    )
    # `answer` fails by design on repetitions 2 and 5: below --min-pass-rate 1.
    assert done.returncode == 8, done.stderr
    assert "Traceback" not in done.stderr
    out = tmp_path / "out"
    summary = load_suite_record(out / "suite.json")
    assert summary["exit_code"] == 8
    assert summary["totals"]["runs_finished"] == 15
    junit_path = out / "junit.xml"
    xmlschema.XMLSchema(JUNIT_XSD).validate(junit_path)
    root = ElementTree.parse(junit_path).getroot()
    assert int(root.get("tests", "")) == summary["totals"]["runs_planned"]
    assert int(root.get("failures", "")) == summary["totals"]["failed"]
    totals = summary["totals"]
    assert int(root.get("errors", "")) == totals["errored"] + totals["unavailable"]
    markdown = _markdown_rows((out / "summary.md").read_text("utf-8"))
    for workflow in summary["workflows"]:
        suite = root.find(f"testsuite[@name='{workflow['name']}']")
        assert suite is not None
        assert int(suite.get("failures", "")) == workflow["failed"]
        errors = workflow["errored"] + workflow["unavailable"]
        assert int(suite.get("errors", "")) == errors
        assert len(suite.findall("testcase")) == len(workflow["runs"])
        passed, failed, errored, unavailable, rate = markdown[workflow["name"]][:5]
        assert int(passed) == workflow["passed"]
        assert int(failed) == workflow["failed"]
        assert int(errored) == workflow["errored"]
        assert int(unavailable) == workflow["unavailable"]
        assert float(rate) == pytest.approx(workflow["pass_rate"], abs=5e-4)
    answer = root.find("testsuite[@name='answer']")
    assert answer is not None
    failures = answer.findall("testcase/failure")
    assert len(failures) == 2
    assert "requirement answer-is-42: missing_content" in (failures[0].text or "")
    assert re.search(r"\[15/15\] \w+ #005: passed", done.stderr)
    # The closing summary (SPEC 21), piped: no escape sequence at all.
    assert (
        "  answer: pass rate 60% (3/5), 95% interval 23%–88%, 0 errored, "
        "0 unavailable\n    why: answer-is-42 (missing_content) × 2\n"
    ) in done.stderr
    assert "details: akit report out --html out/report.html\n" in done.stderr
    assert "\x1b" not in done.stderr


def test_min_pass_rate_json_and_quiet(tmp_path: Path) -> None:
    suite = write_suite(tmp_path)
    done = akit(
        "workflow",
        "run",
        str(suite),
        "--repeat",
        "2",
        "--output-dir",
        str(tmp_path / "out"),
        "--min-pass-rate",
        "0.5",
        "--json",
        "--quiet",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == load_suite_record(tmp_path / "out/suite.json")


def test_invalid_workflow_anywhere_exits_2_and_nothing_runs(tmp_path: Path) -> None:
    suite = write_suite(tmp_path)
    broken = suite / "broken"
    broken.mkdir()
    (broken / "workflow.yaml").write_text("version: 2\nname: x\n", "utf-8")
    (suite / "steady" / "agent.script.yaml").write_text(
        "version: 1\nvariants: [[{text: 3}]]\n", "utf-8"
    )
    done = akit("workflow", "run", str(suite), "--output-dir", "out", cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert any(
        re.match(rf"{re.escape(str(broken / 'workflow.yaml'))}:1:10: ", line)
        for line in lines
    ), done.stderr
    script = suite / "steady" / "agent.script.yaml"
    assert any(line.startswith(f"{script}:2:") for line in lines), done.stderr
    assert "nothing ran" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_refusals_before_any_run(tmp_path: Path) -> None:
    suite = write_suite(tmp_path)
    (tmp_path / "empty").mkdir()
    done = akit("workflow", "run", "empty", "--output-dir", "out", cwd=tmp_path)
    assert done.returncode == 2
    assert "holds no workflow file" in done.stderr
    full = tmp_path / "full"
    full.mkdir()
    (full / "x").write_text("x", "utf-8")
    done = akit("workflow", "run", str(suite), "--output-dir", "full", cwd=tmp_path)
    assert done.returncode == 1
    assert "is not empty" in done.stderr
    done = akit("workflow", "run", str(suite), cwd=tmp_path)
    assert done.returncode == 2
    assert "needs --output-dir" in done.stderr
    done = akit(
        "workflow",
        "run",
        str(suite),
        "--output-dir",
        "out",
        "--output",
        "r.json",
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert "--output: single-run options" in done.stderr
    assert not (tmp_path / "out").exists()
    dup = tmp_path / "dup"
    write_member(dup, "a", [PASSING_SCRIPT])
    write_member(dup, "a", [PASSING_SCRIPT], folder_name="b")
    done = akit("workflow", "run", str(dup), "--output-dir", "out", cwd=tmp_path)
    assert done.returncode == 2
    assert "duplicate workflow name 'a'" in done.stderr


def _slow_suite(tmp_path: Path) -> Path:
    suite = tmp_path / "suite"
    write_member(suite, "fast", [PASSING_SCRIPT])
    write_member(suite, "slow", [SLOW_SCRIPT])
    return suite


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_signal_cancels_keeps_records_and_exits_130(
    tmp_path: Path, signum: signal.Signals
) -> None:
    suite = _slow_suite(tmp_path)
    out = tmp_path / "out"
    with subprocess.Popen(
        [*AKIT, "workflow", "run", str(suite), "--output-dir", str(out)],
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if "fast #001: passed" in line:
                break
        process.send_signal(signum)
        _, rest = process.communicate(timeout=60)
    assert process.returncode == 130, rest
    assert f"received {signum.name}" in rest
    assert "Traceback" not in rest
    summary = load_suite_record(out / "suite.json")
    assert summary["status"] == "cancelled"
    assert summary["exit_code"] == 130
    slow = next(w for w in summary["workflows"] if w["name"] == "slow")
    (run,) = slow["runs"]
    assert run["execution_status"] == "cancelled"
    record = json.loads((out / run["record"]).read_text("utf-8"))
    assert record["execution"]["status"] == "cancelled"
    assert not list(out.rglob(".akit-*"))


@pytest.mark.parametrize("export", ["--junit", "--markdown"])
def test_a_cancelled_suite_exits_130_even_when_an_export_then_fails(
    tmp_path: Path, export: str
) -> None:
    suite = _slow_suite(tmp_path)
    out, exported = tmp_path / "out", tmp_path / "export.txt"
    with subprocess.Popen(
        [
            *AKIT,
            "workflow",
            "run",
            str(suite),
            "--output-dir",
            str(out),
            export,
            str(exported),
        ],
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if "fast #001: passed" in line:
                break
        # The export path was checked before any run; now it is taken, so the
        # export fails once the cancelled suite has finished.
        exported.write_text("taken", "utf-8")
        process.send_signal(signal.SIGINT)
        _, rest = process.communicate(timeout=60)
    assert process.returncode == 130, rest
    assert f"error: output {exported} appeared while the run was going" in rest
    assert "Traceback" not in rest
    assert exported.read_text("utf-8") == "taken"
    assert load_suite_record(out / "suite.json")["exit_code"] == 130


def test_sigkill_leaves_a_valid_suite_record(tmp_path: Path) -> None:
    suite = _slow_suite(tmp_path)
    out = tmp_path / "out"
    with subprocess.Popen(
        [*AKIT, "workflow", "run", str(suite), "--output-dir", str(out)],
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if "fast #001: passed" in line:
                break
        process.kill()
        process.communicate(timeout=60)
    summary = load_suite_record(out / "suite.json")
    assert (summary["status"], summary["reason"]) == ("cancelled", "not_finished")
    assert summary["exit_code"] is None
    assert summary["finished_at"] is None
    fast = next(w for w in summary["workflows"] if w["name"] == "fast")
    assert [r["verification"] for r in fast["runs"]] == ["passed"]


def test_live_display_on_a_terminal(tmp_path: Path) -> None:
    suite = write_suite(tmp_path)
    primary, secondary = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
    env.pop("NO_COLOR", None)
    with subprocess.Popen(
        [
            *AKIT,
            "workflow",
            "run",
            str(suite),
            "--repeat",
            "3",
            "--output-dir",
            str(tmp_path / "out"),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=secondary,
        env=env,
    ) as process:
        os.close(secondary)
        chunks: list[bytes] = []
        while True:
            ready, _, _ = select.select([primary], [], [], 60)
            if not ready:
                break
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=60)
    os.close(primary)
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert process.returncode == 8
    assert "\x1b[" in shown  # the live display redraws with control sequences
    assert "runs 6/6" in shown
    assert re.search(r"flaky\s*│\s*2\s*│\s*1\s*│\s*0\s*│\s*0\s*│\s*67%", shown), shown
    assert "[6/6]" not in shown  # not the piped one-line-per-run form
    # The closing summary, with names in bold on a terminal.
    bold = "\x1b[1m{}\x1b[0m"
    assert bold.format("flaky") + ": pass rate 67% (2/3), 95% interval" in shown
    command = (
        f"akit report {tmp_path / 'out'} --html {tmp_path / 'out' / 'report.html'}"
    )
    assert "details: " + bold.format(command) in shown


PROBE = """
import atexit, json, sys
listing = sys.argv[1]
def report():
    with open(listing, "w") as out:
        json.dump(sorted(sys.modules), out)
atexit.register(report)
sys.argv = ["akit", *sys.argv[2:]]
from artemiskit_cli._main import main
main()
"""


@pytest.mark.parametrize(
    "args",
    [("--help",), ("scenario", "validate", "examples/flaky/workflow.yaml")],
)
def test_rich_is_imported_only_for_a_live_display(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    listing = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(listing), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    modules = json.loads(listing.read_text("utf-8"))
    assert [m for m in modules if m.split(".")[0] == "rich"] == []


def test_suite_options_reach_the_suite(tmp_path: Path) -> None:
    suite = write_suite(tmp_path)
    done = akit(
        "workflow",
        "run",
        str(suite / "steady" / "workflow.yaml"),
        str(suite / "flaky" / "workflow.yaml"),
        "--repeat",
        "4",
        "--concurrency",
        "1",
        "--fail-fast",
        "--max-suite-tokens",
        "100000",
        "--transcripts",
        "--output-dir",
        "out",
        cwd=tmp_path,
    )
    assert done.returncode == 8, done.stderr
    summary = load_suite_record(tmp_path / "out" / "suite.json")
    assert summary["settings"] == {
        "repeat": 4,
        "concurrency": 1,
        "executor": "local",
        "min_pass_rate": 1.0,
        "max_suite_tokens": 100000,
        "max_errored": 0,
        "gate": "point",
        "cases": None,
    }
    # Given order is kept: steady#1, flaky#1, steady#2, flaky#2 (fails): stop.
    assert summary["status"] == "failed_fast"
    assert summary["totals"]["runs_finished"] == 4
    transcripts = tmp_path / "out" / "transcripts"
    assert (transcripts / "flaky" / "002.transcript.json").is_file()


@pytest.mark.docker
def test_sigterm_mid_sandbox_suite_leaves_no_container(tmp_path: Path) -> None:
    from tests.environments._docker import SANDBOX_IMAGE, labelled_containers

    suite = tmp_path / "suite"
    sandbox = {
        "kind": "sandbox",
        "files": {"docs/policy.md": "Refunds within 30 days."},
    }
    write_member(suite, "fast", [PASSING_SCRIPT], environment=sandbox)
    write_member(suite, "slow", [SLOW_SCRIPT], environment=sandbox)
    config = tmp_path / "artemis.config.yaml"
    config.write_text(json.dumps({"sandbox": {"image": SANDBOX_IMAGE}}), "utf-8")
    out = tmp_path / "out"
    command = [*AKIT, "workflow", "run", str(suite), "--output-dir", str(out)]
    with subprocess.Popen(
        [*command, "--config", str(config)], stderr=subprocess.PIPE, text=True
    ) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if "fast #001: passed" in line:
                break
        process.send_signal(signal.SIGTERM)
        _, rest = process.communicate(timeout=60)
    assert process.returncode == 130, rest
    summary = load_suite_record(out / "suite.json")
    assert summary["status"] == "cancelled"
    slow = next(w for w in summary["workflows"] if w["name"] == "slow")
    (run,) = slow["runs"]
    record = json.loads((out / run["record"]).read_text("utf-8"))
    assert record["cleanup"]["status"] == "complete"
    assert anyio.run(labelled_containers, run["run_id"]) == []


def test_suite_mode_registers_tools_for_every_run(tmp_path: Path) -> None:
    examples = tmp_path / "examples"
    examples.symlink_to(ROOT / "examples")
    workflow = "examples/custom_tool/workflow.yaml"
    refused = akit("workflow", "run", workflow, "--output-dir", "no", cwd=tmp_path)
    assert refused.returncode == 2, refused.stderr
    assert "--tools" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert not (tmp_path / "no" / "suite.json").exists()
    done = akit(
        "workflow",
        "run",
        workflow,
        "--tools",
        "examples.custom_tool.order_tools:TOOLS",
        "--repeat",
        "2",
        "--output-dir",
        "out",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    summary = load_suite_record(tmp_path / "out" / "suite.json")
    (result,) = summary["workflows"]
    assert (result["name"], result["passed"], result["runs"][1]["exit_code"]) == (
        "custom-tool",
        2,
        0,
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--ray-address", "127.0.0.1:1"], "--ray-address needs --executor ray"),
        (
            ["--executor", "ray", "--checkpoint-dir", "cp"],
            "checkpointing is refused under the Ray executor",
        ),
    ],
)
def test_ray_options_are_checked_before_anything_runs(
    tmp_path: Path, extra: list[str], message: str
) -> None:
    done = akit(
        "workflow",
        "run",
        write_suite(tmp_path),
        "--output-dir",
        tmp_path / "out",
        *extra,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.ray
def test_an_unreachable_ray_cluster_is_exit_1_before_any_run(tmp_path: Path) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    # A real process: a Ray driver must not start inside the test process.
    done = akit_process(
        "workflow",
        "run",
        write_suite(tmp_path),
        "--output-dir",
        tmp_path / "out",
        "--executor",
        "ray",
        "--ray-address",
        f"127.0.0.1:{port}",
    )
    assert done.returncode == 1, done.stderr
    assert f"cannot reach the Ray cluster at 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out" / "runs").exists()
