"""``akit run`` as a CI script uses it, against a loopback server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests._cli import AKIT, akit
from tests.prompt_response.conftest import write_config
from tests.providers._chat_server import NeverAnswer, Reply

if TYPE_CHECKING:
    from tests.providers._chat_server import ChatServer

SENTINEL_KEY = "sk-SENTINEL-KEY-0123456789abcdef"
SENTINEL_PROMPT = "PROMPT-SENTINEL-42"


def write_scenario(folder: Path, name: str, *answers: str) -> Path:
    cases = "".join(
        f"  - id: case-{i}\n    prompt: 'Q {SENTINEL_PROMPT} ANSWER:{answer}'\n"
        "    expected: {type: contains, values: [ok]}\n"
        for i, answer in enumerate(answers)
    )
    path = folder / "scenarios" / f"{name}.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(
        f"name: {name}\nprovider: local\nmodel: gpt-4o-mini\ncases:\n{cases}",
        encoding="utf-8",
    )
    return path


def stored(folder: Path, project: str = "default") -> list[Path]:
    return sorted((folder / "artemis-runs" / project).glob("*.json"))


def test_a_passing_run_saves_its_manifest_and_a_junit_export(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url, project="team")
    write_scenario(tmp_path, "alpha", "ok 1", "fine, ok")
    done = akit("run", "scenarios/", "--export", "junit", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [manifest_path] = stored(tmp_path, "team")
    text = manifest_path.read_text(encoding="utf-8")
    assert not text.endswith("\n")
    manifest = json.loads(text)
    assert text == json.dumps(manifest, indent=2, ensure_ascii=False)
    assert manifest_path.stem == manifest["run_id"]
    assert len(manifest["run_id"]) == 12
    suite = ET.parse(tmp_path / "artemis-exports" / f"{manifest['run_id']}.xml")
    root = suite.getroot()
    assert root.tag == "testsuite"
    assert root.attrib["name"] == "alpha"
    assert (root.attrib["tests"], root.attrib["failures"]) == ("2", "0")
    properties = {p.attrib["name"]: p.attrib["value"] for p in root.iter("property")}
    assert properties["artemis.run_id"] == manifest["run_id"]
    assert properties["artemis.success_rate"] == "100.0%"
    assert [c.attrib["name"] for c in root.iter("testcase")] == ["case-0", "case-1"]


def test_a_failed_case_exits_1_and_json_summary_is_pure_json(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "beta", "ok", "nope <b>&</b>")
    done = akit(
        "run",
        "scenarios/beta.yaml",
        "--summary",
        "json",
        "--export",
        "junit",
        cwd=tmp_path,
    )
    assert done.returncode == 1
    summary = json.loads(done.stdout)
    assert summary["success"] is False
    assert summary["cases"] == {
        "total": 2,
        "passed": 1,
        "failed": 1,
        "successRate": 0.5,
    }
    [run] = summary["runs"]
    root = ET.parse(tmp_path / "artemis-exports" / f"{run['runId']}.xml").getroot()
    failures = list(root.iter("failure"))
    assert len(failures) == 1
    assert failures[0].attrib["type"] == "contains"
    out = root.find("testcase[@name='case-1']/system-out")
    assert out is not None
    assert out.text == "nope <b>&</b>"


def test_ci_text_prints_key_value_lines(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "gamma-1", "ok")
    done = akit("run", "scenarios", "--ci", "--no-save", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "ARTEMISKIT_RESULT=PASS"
    assert "ARTEMISKIT_SUCCESS_RATE=100.0" in lines
    assert any(line.startswith("ARTEMISKIT_RUN_ID_GAMMA_1=") for line in lines)
    assert not (tmp_path / "artemis-runs").exists()


def test_storage_and_project_come_from_the_environment(
    model_server: ChatServer, tmp_path: Path
) -> None:
    (tmp_path / "artemis.config.yaml").write_text(
        json.dumps(
            {"providers": {"local": {"type": "openai", "base_url": model_server.url}}}
        ),
        encoding="utf-8",
    )
    write_scenario(tmp_path, "delta", "ok")
    env = {**os.environ, "ARTEMIS_STORAGE_PATH": "store", "ARTEMIS_PROJECT": "proj"}
    done = akit("run", "scenarios", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "store" / "proj").glob("*.json"))) == 1


def test_workflow_files_are_refused_when_named_and_skipped_in_folders(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "eps", "ok")
    record = tmp_path / "scenarios" / "run.record.json"
    record.write_text(
        json.dumps({"schema": "artemiskit.workflow-record", "schema_version": 3}),
        encoding="utf-8",
    )
    named = akit("run", record, cwd=tmp_path)
    assert named.returncode == 2
    assert "is a workflow record, not a prompt-response scenario" in named.stderr
    assert not (tmp_path / "artemis-runs").exists()
    (tmp_path / "scenarios" / "workflow.yaml").write_text(
        "version: 1\nname: w\ntarget: {provider: scripted, model: m}\n",
        encoding="utf-8",
    )
    folder = akit("run", "scenarios", cwd=tmp_path)
    assert folder.returncode == 0, folder.stderr
    assert "skipped" in folder.stderr


def test_an_invalid_scenario_fails_the_run_with_its_positions(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    bad = tmp_path / "scenarios" / "bad.yaml"
    bad.parent.mkdir()
    bad.write_text("name: bad\ncases:\n  - id: a\n    expected: {type: exact}\n")
    done = akit("run", "scenarios", cwd=tmp_path)
    assert done.returncode == 1
    assert "scenarios/bad.yaml:4:15: $.cases[0].expected.value: is required" in (
        done.stderr
    )
    assert "Traceback" not in done.stderr


def test_secrets_and_prompts_stay_out_of_the_output(
    chat_server: ChatServer, tmp_path: Path
) -> None:
    chat_server.enqueue(
        *[Reply(status=401, body={"error": {"message": SENTINEL_PROMPT}})] * 4
    )
    (tmp_path / "artemis.config.yaml").write_text(
        json.dumps(
            {
                "providers": {
                    "local": {
                        "type": "openai",
                        "base_url": chat_server.url,
                        "api_key_env": "SENTINEL_ENV",
                    }
                }
            }
        ),
        encoding="utf-8",
    )
    write_scenario(tmp_path, "zeta", "ok")
    env = {**os.environ, "SENTINEL_ENV": SENTINEL_KEY}
    done = akit(
        "run",
        "scenarios",
        "-v",
        "--ci",
        "--retries",
        "1",
        "--export",
        "markdown",
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 1
    output = done.stdout + done.stderr
    assert SENTINEL_KEY not in output
    assert SENTINEL_PROMPT not in output
    for path in (tmp_path / "artemis-runs").rglob("*.json"):
        assert SENTINEL_KEY not in path.read_text(encoding="utf-8")
    assert chat_server.requests[0].headers["authorization"] == f"Bearer {SENTINEL_KEY}"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupt_saves_nothing_partial(
    chat_server: ChatServer, tmp_path: Path, signum: int
) -> None:
    chat_server.enqueue(NeverAnswer())
    write_config(tmp_path, chat_server.url)
    write_scenario(tmp_path, "eta", "ok")
    process = subprocess.Popen(
        [*AKIT, "run", "scenarios", "--export=junit"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert chat_server.wait_for_hanging(1)
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130
    assert "Traceback" not in stderr
    assert not (tmp_path / "artemis-runs").exists()
    assert not (tmp_path / "artemis-exports").exists()
    assert chat_server.wait_for_disconnects(1)


def test_verbose_lists_unset_variables_and_ignored_keys(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    path = write_scenario(tmp_path, "theta", "ok")
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("name: theta\n", "name: theta\nowner: ${NOT_SET_ANYWHERE}\n"),
        encoding="utf-8",
    )
    quiet = akit("run", "scenarios", "--no-save", cwd=tmp_path)
    assert "NOT_SET_ANYWHERE" not in quiet.stderr
    done = akit(
        "run", "scenarios", "--no-save", "-v", "--export", "junit", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert (
        "environment variable NOT_SET_ANYWHERE is not set and has no default"
        in done.stderr
    )
    assert "ignored unknown key $.owner" in done.stderr
    [export] = (tmp_path / "artemis-exports").glob("*.xml")
    assert export.stat().st_mode & 0o077 == 0


def test_a_lone_surrogate_from_the_model_is_stored_exported_and_reported(
    chat_server: ChatServer, tmp_path: Path
) -> None:
    body = (
        b'{"choices": [{"index": 0, "message": {"role": "assistant", '
        b'"content": "ok \\ud800 done"}, "finish_reason": "stop"}]}'
    )
    chat_server.enqueue(Reply(body=body))
    write_config(tmp_path, chat_server.url)
    write_scenario(tmp_path, "iota", "ok")
    done = akit("run", "scenarios", "--export", "junit", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [path] = stored(tmp_path)
    manifest = json.loads(path.read_text(encoding="utf-8"))
    assert manifest["cases"][0]["response"] == "ok \ud800 done"
    [export] = (tmp_path / "artemis-exports").glob("*.xml")
    ET.parse(export)
    report = akit("report", path, "--html", tmp_path / "r.html", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert "ok \ufffd done" in (tmp_path / "r.html").read_text("utf-8")


def test_a_budget_overrun_exits_1_and_security_summary(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "kappa", "ok", "ok", "bad")
    over = akit("run", "scenarios", "--ci", "--budget", "0", "--no-save", cwd=tmp_path)
    assert over.returncode == 1
    lines = over.stdout.splitlines()
    assert "ARTEMISKIT_BUDGET_EXCEEDED=true" in lines
    assert "ARTEMISKIT_BUDGET_LIMIT=0.00" in lines
    security = akit(
        "run", "scenarios", "--summary", "security", "--no-save", cwd=tmp_path
    )
    assert security.returncode == 1
    report = json.loads(security.stdout)
    assert report["overallRisk"] == "high"
    assert report["vulnerabilities"] == {
        "critical": 0,
        "high": 1,
        "medium": 0,
        "low": 0,
    }


def test_parallel_files_keep_their_order_and_still_export(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    for name in ("p1", "p2", "p3"):
        write_scenario(tmp_path, name, "ok")
    done = akit(
        "run",
        "scenarios",
        "--parallel",
        "3",
        "--summary",
        "json",
        "--export",
        "junit",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    runs = json.loads(done.stdout)["runs"]
    assert [run["scenario"] for run in runs] == ["p1", "p2", "p3"]
    assert len(list((tmp_path / "artemis-exports").glob("*.xml"))) == 3


TS_CONFIG = """\
project: ts-project
provider: local
providers:
  local:
    type: openai
    baseUrl: {url}
    apiKey: ${{LOCAL_KEY}}
    defaultModel: gpt-4o-mini
    timeout: 30000
    maxRetries: 2
  azure-openai:
    apiKey: ${{AZURE_OPENAI_API_KEY}}
    resourceName: ${{AZURE_OPENAI_RESOURCE}}
    apiVersion: ${{AZURE_OPENAI_API_VERSION:-2024-02-15-preview}}
storage:
  type: local
  basePath: ./ts-runs
scenariosDir: ./cases
output: {{format: json, dir: ./artemis-output}}
ci: {{failOnRegression: true}}
"""


def test_a_typescript_config_keeps_working(
    model_server: ChatServer, tmp_path: Path
) -> None:
    (tmp_path / "artemis.config.yaml").write_text(
        TS_CONFIG.format(url=model_server.url), encoding="utf-8"
    )
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "s.yaml").write_text(
        "name: ts\ncases:\n  - id: a\n    prompt: 'ANSWER:ok'\n"
        "    expected: {type: contains, values: [ok]}\n",
        encoding="utf-8",
    )
    env = {
        key: value for key, value in os.environ.items() if not key.startswith("AZURE")
    }
    done = akit("run", cwd=tmp_path, env={**env, "LOCAL_KEY": "sk-local"})
    assert done.returncode == 0, done.stderr
    [path] = (tmp_path / "ts-runs" / "ts-project").glob("*.json")
    manifest = json.loads(path.read_text(encoding="utf-8"))
    assert manifest["config"]["model"] == "gpt-4o-mini"
    assert model_server.requests[0].headers["authorization"] == "Bearer sk-local"


def test_an_unsafe_project_is_refused_before_any_model_call(
    model_server: ChatServer, tmp_path: Path
) -> None:
    write_config(tmp_path, model_server.url)
    write_scenario(tmp_path, "lambda", "ok")
    for project, code in (("../escape", 1), ("My Project", 0)):
        env = {**os.environ, "ARTEMIS_PROJECT": project}
        done = akit("run", "scenarios", cwd=tmp_path, env=env)
        assert done.returncode == code, done.stderr
    assert len(model_server.requests) == 1
    assert not (tmp_path / "escape").exists()
    assert len(list((tmp_path / "artemis-runs" / "My Project").glob("*.json"))) == 1


def test_a_hanging_server_is_cut_off_by_the_timeout_flag(
    chat_server: ChatServer, tmp_path: Path
) -> None:
    chat_server.enqueue(NeverAnswer())
    write_config(tmp_path, chat_server.url)
    write_scenario(tmp_path, "mu", "ok")
    # The flag reaches the runner, whose timer cuts the request off in real time.
    # That the request reached the server and was cancelled is shown without a
    # real wait in test_runner.py and test_anthropic.py (an injected timer); on a
    # loaded machine the request may not arrive within 300 ms.
    done = akit("run", "scenarios", "--timeout", "300", "-v", cwd=tmp_path)
    assert done.returncode == 1
    assert "Timeout after 300ms" in done.stderr
    [path] = stored(tmp_path)
    [case] = json.loads(path.read_text(encoding="utf-8"))["cases"]
    assert (case["ok"], case["error"]) == (False, "Timeout after 300ms")
    assert len(chat_server.requests) <= 1
    if chat_server.requests:  # a request that arrived was hung up on
        assert chat_server.wait_for_disconnects(1)
