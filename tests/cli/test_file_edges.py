"""Files at the edges, through `akit` (issue 11).

Scripts resolve under their root exactly like fixtures; no file the product opens can
hang a command; any legal YAML value ends as a located exit 2; every problem is
printed as ``FILE:LINE:COL: KEY-PATH: rule``, the same way by every command.
"""

from __future__ import annotations

import json
import os
import re
import socket
from pathlib import Path
from typing import Any

import pytest

from tests._builders import PASSING_SCRIPT, USAGE, workflow_dict, write_workflow
from tests._cli import akit, akit_process
from tests._permissions import obey_permission_bits

#: A command that would hang on a FIFO is stopped well before the test timeout.
HANG_GUARD_S = 30


def located(stderr: str, file: str, key_path: str) -> str:
    """The one ``FILE:LINE:COL: KEY-PATH: rule`` line about ``key_path``."""
    pattern = re.compile(
        rf"^(?:.*/)?{re.escape(file)}:\d+:\d+: {re.escape(key_path)}: .+$", re.M
    )
    found = pattern.findall(stderr)
    assert len(found) == 1, stderr
    line: str = found[0]
    return line


def script_text(entries: list[dict[str, Any]]) -> str:
    return json.dumps({"version": 1, "responses": entries}, indent=2)


# -- item 1: the script resolves under the fixture root like a fixture --------------


@pytest.mark.parametrize("model", ["../outside/evil", "/tmp/evil", "a/../../evil"])
def test_validate_refuses_a_scripted_model_outside_the_root(
    tmp_path: Path, model: str
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    path = root / "workflow.yaml"
    path.write_text(
        json.dumps(
            workflow_dict(target={"provider": "scripted", "model": model}), indent=2
        )
    )
    done = akit("scenario", "validate", path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    located(done.stderr, "workflow.yaml", "$.target.model")


def test_run_refuses_a_script_outside_the_root_and_calls_nothing(
    tmp_path: Path,
) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "evil.script.yaml").write_text(script_text(PASSING_SCRIPT))
    path = root / "workflow.yaml"
    workflow = workflow_dict(
        target={"provider": "scripted", "model": "../outside/evil"}
    )
    path.write_text(json.dumps(workflow, indent=2))
    record = tmp_path / "record.json"
    done = akit("workflow", "run", path, "--output", record)
    assert done.returncode == 2, done.stderr
    located(done.stderr, "workflow.yaml", "$.target.model")
    assert "admitted" not in done.stderr
    assert not record.exists()


@pytest.mark.parametrize("link", ["file", "folder"])
def test_run_refuses_a_script_reached_through_a_symbolic_link(
    tmp_path: Path, link: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "agent.script.yaml").write_text(script_text(PASSING_SCRIPT))
    root = tmp_path / "root"
    root.mkdir()
    model = "agent" if link == "file" else "scripts/agent"
    path = root / "workflow.yaml"
    workflow = workflow_dict(target={"provider": "scripted", "model": model})
    path.write_text(json.dumps(workflow, indent=2))
    if link == "file":
        (root / "agent.script.yaml").symlink_to(outside / "agent.script.yaml")
    else:
        (root / "scripts").symlink_to(outside, target_is_directory=True)
    assert akit("scenario", "validate", path).returncode == 0
    done = akit("workflow", "run", path)
    assert done.returncode == 2, done.stderr
    assert "script path goes through a symbolic link" in done.stderr
    assert "admitted" not in done.stderr
    assert "Traceback" not in done.stderr


def test_a_judge_script_resolves_under_the_judge_folder_too(tmp_path: Path) -> None:
    judged = workflow_dict(
        outcomes=[{"id": "tone", "judge": {"rubric": "Neutral.", "threshold": 0.5}}]
    )
    path = write_workflow(tmp_path, judged)
    (tmp_path / "judge").mkdir()
    (tmp_path / "evil.script.yaml").write_text(script_text([{"score": 1.0}]))
    judge = tmp_path / "judge" / "judge.yaml"
    judge.write_text(json.dumps({"provider": "scripted", "model": "../evil"}))
    done = akit("workflow", "run", path, "--judge-config", judge)
    assert done.returncode == 2, done.stderr
    assert "path contains a '..' segment" in done.stderr
    assert "admitted" not in done.stderr


def test_a_scripts_dir_is_a_root_like_the_fixture_root(tmp_path: Path) -> None:
    workflow = workflow_dict(target={"provider": "replay", "model": "agent"})
    path = write_workflow(tmp_path, workflow)
    config = tmp_path / "artemis.config.yaml"
    config.write_text("providers:\n  replay: {type: scripted, scripts_dir: scripts}\n")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "agent.script.yaml").write_text(script_text(PASSING_SCRIPT))
    assert akit("workflow", "run", path, "--config", config).returncode == 0
    (tmp_path / "scripts" / "agent.script.yaml").unlink()
    (tmp_path / "scripts" / "agent.script.yaml").symlink_to(
        tmp_path / "agent.script.yaml"
    )
    done = akit("workflow", "run", path, "--config", config)
    assert done.returncode == 2, done.stderr
    assert "script path goes through a symbolic link" in done.stderr


def _fifo_case(tmp_path: Path, which: str) -> tuple[list[str | Path], int, str]:
    """Make ``which`` file a FIFO; return the command, its exit code and message."""
    workflow = workflow_dict()
    if which == "fixture":
        workflow["environment"]["fixture"] = "extra.yaml"
    path = write_workflow(tmp_path, workflow)
    args: list[str | Path] = ["workflow", "run", path]
    fifo = {
        "workflow": path,
        "script": tmp_path / "agent.script.yaml",
        "fixture": tmp_path / "extra.yaml",
        "config": tmp_path / "artemis.config.yaml",
        "judge config": tmp_path / "judge.yaml",
    }[which]
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    if which == "config":
        args += ["--config", fifo]
    if which == "judge config":
        args += ["--judge-config", fifo]
    expected = {
        "workflow": (1, "not a regular file"),
        "script": (2, "script is not a regular file"),
        "fixture": (2, "fixture is not a regular file"),
        "config": (1, "not a regular file"),
        "judge config": (1, "not a regular file"),
    }[which]
    return args, *expected


@pytest.mark.timeout(HANG_GUARD_S)
@pytest.mark.parametrize(
    "which", ["workflow", "script", "fixture", "config", "judge config"]
)
def test_a_fifo_never_hangs_a_command(tmp_path: Path, which: str) -> None:
    args, code, message = _fifo_case(tmp_path, which)
    done = akit(*args)
    assert done.returncode == code, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert "admitted" not in done.stderr


def test_fixture_root_option_resolves_fixture_and_script_under_it(
    tmp_path: Path,
) -> None:
    """``--fixture-root D``: the fixture and the script come from D, nowhere else."""
    workflows, root = tmp_path / "workflows", tmp_path / "fixtures"
    workflows.mkdir()
    root.mkdir()
    workflow = workflow_dict(environment={"fixture": "state/extra.yaml"})
    path = write_workflow(workflows, workflow, script=[{"text": "wrong script"}])
    (root / "state").mkdir()
    (root / "state" / "extra.yaml").write_text(
        json.dumps({"files": {"docs/policy.md": "Refunds within 30 days."}})
    )
    (root / "agent.script.yaml").write_text(script_text(PASSING_SCRIPT))
    done = akit("workflow", "run", path, "--fixture-root", root)
    assert done.returncode == 0, done.stderr
    # Without the option, the workflow's folder is the root: no fixture there.
    done = akit("workflow", "run", path)
    assert done.returncode == 2, done.stderr
    assert "fixture file not found" in done.stderr


@pytest.mark.parametrize("what", ["fixture", "script"])
def test_fixture_root_option_refuses_a_way_out_of_it(tmp_path: Path, what: str) -> None:
    workflows, root, outside = (tmp_path / n for n in ("workflows", "root", "out"))
    for folder in (workflows, root, outside):
        folder.mkdir()
    workflow = workflow_dict(environment={"fixture": "extra.yaml"})
    path = write_workflow(workflows, workflow)
    fixture = json.dumps({"files": {"docs/policy.md": "Refunds within 30 days."}})
    (outside / "extra.yaml").write_text(fixture)
    (outside / "agent.script.yaml").write_text(script_text(PASSING_SCRIPT))
    linked = "extra.yaml" if what == "fixture" else "agent.script.yaml"
    for name in ("extra.yaml", "agent.script.yaml"):
        if name == linked:
            (root / name).symlink_to(outside / name)
        else:
            (root / name).write_text((outside / name).read_text())
    done = akit("workflow", "run", path, "--fixture-root", root)
    assert done.returncode == 2, done.stderr
    assert f"{what} path goes through a symbolic link" in done.stderr
    assert "admitted" not in done.stderr


# -- item 9: any legal YAML value ends as a located exit 2 --------------------------

HUGE_HEX = "0x" + "f" * 5000
HUGE_DECIMAL = "9" * 5000
SURROGATE = '"docs/\\ud800.md"'
MARK = "__MARK__"


def _with_mark(workflow: dict[str, Any], raw: str) -> str:
    return json.dumps(workflow, indent=2).replace(json.dumps(MARK), raw)


def _workflow_case(tmp_path: Path, where: str, raw: str) -> tuple[Path, str, str]:
    """Put ``raw`` YAML at ``where`` in the workflow; return it, file, key path."""
    workflow = workflow_dict()
    key_path = {
        "state": "$.environment.state.records.t.r.n",
        "budget": "$.budgets.max_actions",
        "allow.paths": "$.tools[0].allow.paths[0]",
        "file outcome": "$.outcomes[0].file",
        "fixture": "$.environment.fixture",
        "model": "$.target.model",
    }[where]
    if where == "state":
        workflow["environment"]["state"] = {"records": {"t": {"r": {"n": MARK}}}}
    elif where == "budget":
        workflow["budgets"]["max_actions"] = MARK
    elif where == "allow.paths":
        workflow["tools"][0]["allow"]["paths"] = [MARK]
    elif where == "file outcome":
        workflow["outcomes"][0]["file"] = MARK
    elif where == "fixture":
        workflow["environment"]["fixture"] = MARK
    elif where == "model":
        workflow["target"]["model"] = MARK
    path = write_workflow(tmp_path, workflow)
    path.write_text(_with_mark(workflow, raw))
    return path, "workflow.yaml", key_path


WORKFLOW_CASES = [
    ("state", HUGE_HEX),
    ("state", HUGE_DECIMAL),
    ("budget", HUGE_HEX),
    ("allow.paths", SURROGATE),
    ("file outcome", SURROGATE),
    ("fixture", SURROGATE),
    ("model", SURROGATE),
]


@pytest.mark.parametrize(
    ("where", "raw"),
    WORKFLOW_CASES,
    ids=[f"{where}-{raw[:6]}" for where, raw in WORKFLOW_CASES],
)
def test_hostile_workflow_values_are_located_exit_2(
    tmp_path: Path, where: str, raw: str
) -> None:
    path, file, key_path = _workflow_case(tmp_path, where, raw)
    validated = akit("scenario", "validate", path)
    ran = akit("workflow", "run", path)
    for done in (validated, ran):
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
    # validate and run print the same problem the same way
    assert located(validated.stderr, file, key_path) == located(
        ran.stderr, file, key_path
    )


def test_a_surrogate_files_key_is_located_exit_2(tmp_path: Path) -> None:
    path = write_workflow(tmp_path)
    text = path.read_text().replace('"docs/policy.md"', SURROGATE, 1)
    path.write_text(text)
    for args in (("scenario", "validate", path), ("workflow", "run", path)):
        done = akit(*args)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        assert re.search(
            r"workflow\.yaml:\d+:\d+: \$\.environment\.files\[", done.stderr
        )


@pytest.mark.parametrize(
    ("where", "text", "key_path"),
    [
        (
            "script argument",
            '{"version": 1, "responses": [{"tool_calls": [{"name": "read_file", '
            f'"arguments": {{"path": "docs/policy.md", "n": {HUGE_HEX}}}}}]}}]}}',
            "$.responses[0].tool_calls[0].arguments.n",
        ),
        (
            "script id",
            '{"version": 1, "responses": [{"tool_calls": [{"name": "read_file", '
            f'"id": {HUGE_HEX}}}]}}]}}',
            "$.responses[0].tool_calls[0].id",
        ),
    ],
    ids=["huge-argument", "huge-id"],
)
def test_hostile_script_values_are_located_exit_2(
    tmp_path: Path, where: str, text: str, key_path: str
) -> None:
    path = write_workflow(tmp_path)
    (tmp_path / "agent.script.yaml").write_text(text)
    done = akit("workflow", "run", path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    located(done.stderr, "agent.script.yaml", key_path)
    assert "agent.script.yaml: invalid script" in done.stderr


def test_a_surrogate_script_argument_plays_a_hostile_model(tmp_path: Path) -> None:
    # Arguments are the model's words (SPEC 11): a lone surrogate in them is the
    # model's invalid call, denied at admission, not an invalid script.
    path = write_workflow(tmp_path)
    (tmp_path / "agent.script.yaml").write_text(
        '{"version": 1, "responses": [{"tool_calls": [{"name": "read_file", '
        f'"arguments": {{"path": {SURROGATE}}}}}]}}]}}'
    )
    done = akit("workflow", "run", path, "--json")
    assert done.returncode == 4, done.stderr
    assert "Traceback" not in done.stderr
    record = json.loads(done.stdout)
    assert record["execution"]["reason"] == "invalid_arguments"


@pytest.mark.parametrize(
    ("name", "text", "key_path"),
    [
        ("extra.yaml", f"records: {{t: {{r: {{n: {HUGE_HEX}}}}}}}", "$.records.t.r.n"),
        (
            "extra.yaml",
            'documents: {d: {title: "\\ud800", content: x}}',
            "$.documents.d.title",
        ),
        (
            "extra.json",
            f'{{"records": {{"t": {{"r": {{"n": {HUGE_DECIMAL}}}}}}}}}',
            None,
        ),
    ],
    ids=["yaml-huge-hex", "yaml-surrogate", "json-huge-decimal"],
)
def test_hostile_fixture_values_are_exit_2(
    tmp_path: Path, name: str, text: str, key_path: str | None
) -> None:
    workflow = workflow_dict()
    workflow["environment"]["fixture"] = name
    path = write_workflow(tmp_path, workflow)
    (tmp_path / name).write_text(text)
    done = akit("workflow", "run", path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    if key_path is not None:
        located(done.stderr, name, key_path)


@pytest.mark.parametrize("option", ["--config", "--judge-config"])
def test_hostile_configuration_values_are_exit_1(tmp_path: Path, option: str) -> None:
    path = write_workflow(tmp_path)
    config = tmp_path / "config.yaml"
    config.write_text(
        f"providers:\n  local: {{type: openai, request_timeout_ms: {HUGE_HEX}}}\n"
    )
    done = akit("workflow", "run", path, option, config)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    located(done.stderr, "config.yaml", "$.providers.local.request_timeout_ms")


# -- item 18: one error format; messages that say what to do ------------------------


def test_an_invalid_script_names_its_file_and_the_known_keys(tmp_path: Path) -> None:
    path = write_workflow(tmp_path, script=[{"text": "hi", "surprise": 1}])
    done = akit("workflow", "run", path)
    assert done.returncode == 2, done.stderr
    line = located(done.stderr, "agent.script.yaml", "$.responses[0].surprise")
    assert "delay_ms, score, text, tool_calls, usage" in line
    assert re.search(r"error: .*agent\.script\.yaml: invalid script", done.stderr)


def test_an_invalid_configuration_names_its_file_and_the_known_keys(
    tmp_path: Path,
) -> None:
    path = write_workflow(tmp_path)
    config = tmp_path / "artemis.config.yaml"
    config.write_text("providers: {}\nsandbox:\n  imag: x\n")
    done = akit("workflow", "run", path, "--config", config)
    assert done.returncode == 1, done.stderr
    line = located(done.stderr, "artemis.config.yaml", "$.sandbox.imag")
    assert "known: image, memory_bytes" in line
    assert line.startswith(f"{config}:3:3: ")
    assert f"error: {config}: invalid configuration" in done.stderr


def test_an_unknown_provider_lists_the_configured_entries(tmp_path: Path) -> None:
    workflow = workflow_dict(target={"provider": "remote", "model": "agent"})
    path = write_workflow(tmp_path, workflow)
    config = tmp_path / "artemis.config.yaml"
    config.write_text(
        "providers:\n  local: {type: openai, base_url: 'http://127.0.0.1:9/v1'}\n"
    )
    done = akit("workflow", "run", path, "--config", config)
    assert done.returncode == 1, done.stderr
    assert "'remote'" in done.stderr
    assert "'local'" in done.stderr
    assert "--config" not in done.stderr
    done = akit("workflow", "run", path)
    assert done.returncode == 1, done.stderr
    assert "--config" in done.stderr


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("command", ["run", "run --preflight", "preflight"])
def test_an_unreachable_provider_says_reason_and_host_on_stderr(
    tmp_path: Path, command: str
) -> None:
    port = _closed_port()
    workflow = workflow_dict(target={"provider": "local", "model": "m"})
    path = write_workflow(tmp_path, workflow)
    config = tmp_path / "artemis.config.yaml"
    config.write_text(
        f"providers:\n  local: {{type: openai, base_url: 'http://127.0.0.1:{port}/v1'}}\n"
    )
    verb, *flags = command.split()
    done = akit("workflow", verb, path, "--config", config, *flags)
    assert done.returncode == (7 if command == "run" else 3), done.stderr
    cause = [line for line in done.stderr.splitlines() if line.startswith("cause: ")]
    assert len(cause) == 1, done.stderr
    assert f"provider 'local' (127.0.0.1:{port})" in cause[0]
    # a closed port refuses the connection before anything is sent (SPEC 16)
    assert "provider_connect_refused" in done.stderr
    if command != "run":
        assert "preflight failed (provider_connect_refused)" in cause[0]


def test_missing_usage_under_max_tokens_hints_at_the_script(tmp_path: Path) -> None:
    workflow = workflow_dict(
        budgets={"max_actions": 20, "timeout_ms": 30000, "max_tokens": 1000}
    )
    script: list[dict[str, Any]] = [{"text": "Done."}]
    path = write_workflow(tmp_path, workflow, script)
    done = akit("workflow", "run", path)
    assert done.returncode == 7, done.stderr
    hint = [line for line in done.stderr.splitlines() if line.startswith("hint: ")]
    assert len(hint) == 1, done.stderr
    assert "usage: {input_tokens: N, output_tokens: M}" in hint[0]


def test_usage_given_in_every_entry_runs(tmp_path: Path) -> None:
    workflow = workflow_dict(
        budgets={"max_actions": 20, "timeout_ms": 30000, "max_tokens": 1000}
    )
    path = write_workflow(
        tmp_path, workflow, [{**e, "usage": USAGE} for e in PASSING_SCRIPT]
    )
    assert akit("workflow", "run", path).returncode == 0


@pytest.mark.parametrize("which", ["workflow", "config"])
def test_an_unreadable_file_is_exit_1_with_its_name(tmp_path: Path, which: str) -> None:
    # The CLI reads files itself: click's own readability check (a usage error,
    # exit 2) must not stand in for the file error of SPEC 9 (exit 1).
    path = write_workflow(tmp_path)
    config = tmp_path / "artemis.config.yaml"
    config.write_text("providers: {}\n", "utf-8")
    unreadable = path if which == "workflow" else config
    unreadable.chmod(0)
    # A real process: it drops root's permission override before running.
    done = akit_process(
        "workflow", "run", path, "--config", config, preexec_fn=obey_permission_bits
    )
    assert done.returncode == 1, done.stderr
    assert f"cannot read {which}" in done.stderr
    assert str(unreadable) in done.stderr
    assert "Traceback" not in done.stderr
