"""Every fenced block of README.md and docs/*.md is exercised as written.

- ``python``: run as a script (``python -``, from the repository root), exit 0;
- ``yaml``: parsed, then checked by the loader it belongs to: a complete workflow
  validates; a workflow fragment validates inside a minimal workflow; a trusted
  configuration, judge configuration or scripted-provider script loads;
- ``json``: parses (a ``"key": value`` fragment as an object member);
- ``console`` (``$ `` prompts), ``sh``, ``bash``: every ``akit`` command is checked
  against the options ``akit ... --help`` lists, and runs (in a scratch folder holding
  a copy of ``examples/``) with the exit code the block shows when its input files
  exist; ``python -c`` runs, ``python -m`` modules and ``bash`` scripts exist; ``sh``
  and ``bash`` blocks are valid shell (``bash -n``);
- ``text``: a drawing or sample output; its ``akit ...`` synopsis lines name known
  commands and options.

A block that truly cannot be exercised says so in its info string
(```` ```sh norun: REASON ````); the list of such blocks is kept small.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from artemiskit import validate_agent_workflow
from artemiskit.prompt_response import parse_scenario
from artemiskit.providers import parse_judge_config, parse_script, parse_trusted_config
from artemiskit.tools import CATALOGUE
from artemiskit.workflow import WORKFLOW_SCHEMA_FILE, parse_yaml
from tests._cli import AKIT
from tests.examples._blocks import (
    ROOT,
    Block,
    Command,
    all_blocks,
    find_akit_command,
    resolve_akit,
    shell_commands,
)
from tests.workflow._cases import dump

TIMEOUT_S = 120
LANGUAGES = {"python", "yaml", "json", "console", "sh", "bash", "text"}
SHELLS = {"console", "sh", "bash"}
#: At most this many blocks may be shown without being exercised.
MAX_NORUN = 3

BLOCKS = all_blocks()

# A workflow fragment is checked inside this workflow.
BASE: dict[str, Any] = {
    "version": 1,
    "name": "docs",
    "target": {"provider": "scripted", "model": "docs"},
    "tools": [
        {"name": name, "allow": {key: ["*"] for key in spec.allow_required}}
        for name, spec in CATALOGUE.items()
    ],
    "conversation": {"turns": [{"user": "hi"}]},
    "budgets": {"max_actions": 10, "timeout_ms": 1000},
}
WORKFLOW_KEYS = set(json.loads(WORKFLOW_SCHEMA_FILE.read_text("utf-8"))["properties"])
JUDGE_KEYS = {"provider", "model", "max_requests", "max_tokens", "timeout_ms"}
#: Options whose value is a file or folder the command reads.
INPUT_OPTIONS = {"--config", "--judge-config", "--fixture-root", "--replay"}


def params(language: set[str]) -> list[Any]:
    return [
        pytest.param(
            block,
            id=block.where,
            marks=[pytest.mark.docker] if needs_docker(block) else [],
        )
        for block in BLOCKS
        if block.language in language and block.norun is None
    ]


def needs_docker(block: Block) -> bool:
    if block.language == "python":
        return "DockerSandbox" in block.body or "kind: sandbox" in block.body
    if block.language in SHELLS:
        return any(
            "sandbox" in word and Path(ROOT, word).exists()
            for command in shell_commands(block)
            if command.words[0] == "akit"
            for word in command.words
        )
    return False


def outcome(done: subprocess.CompletedProcess[str]) -> str:
    return f"exit {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"


def run(
    command: list[str],
    *,
    cwd: Path = ROOT,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=cwd,
        input=stdin,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )


# --- every block ----------------------------------------------------------------


def test_the_pages_have_blocks_of_every_kind() -> None:
    languages = {block.language for block in BLOCKS}
    assert languages >= {"python", "yaml", "json", "console", "sh"}
    assert len(BLOCKS) >= 60


def test_every_block_says_its_language() -> None:
    unknown = [
        f"{block.where}: fenced as {block.language or 'nothing'!r}"
        for block in BLOCKS
        if block.language not in LANGUAGES
    ]
    assert unknown == [], f"give every block one of {sorted(LANGUAGES)}"


def test_blocks_that_are_not_exercised_are_few_and_justified() -> None:
    norun = [block for block in BLOCKS if block.norun is not None]
    assert len(norun) <= MAX_NORUN, [block.where for block in norun]
    for block in norun:
        assert block.norun is not None
        assert len(block.norun.split()) >= 5, f"{block.where}: say why it cannot run"


# --- python ---------------------------------------------------------------------


@pytest.mark.parametrize("block", params({"python"}))
def test_python_block_runs_as_a_script(block: Block) -> None:
    code = block.body
    if "LOCAL_BASE_URL" in code:
        # The local-server snippet of docs/providers.md talks to a real Chat
        # Completions server on 127.0.0.1, as in tests/providers.
        from tests.providers._chat_server import ChatServer
        from tests.providers.test_providers_docs import quickstart_replies

        with ChatServer() as server:
            server.enqueue(*quickstart_replies())
            done = run(
                [sys.executable, "-"], stdin=code, env={"LOCAL_BASE_URL": server.url}
            )
    else:
        done = run([sys.executable, "-"], stdin=code)
    assert done.returncode == 0, f"{block.where}\n{outcome(done)}"
    assert "Traceback" not in done.stderr
    if "exit code" in code:
        assert "exit code: 0" in done.stdout, outcome(done)


def test_a_top_level_await_does_not_run() -> None:
    """Blocks run as scripts, so a snippet cannot rely on top-level ``await``."""
    done = run([sys.executable, "-"], stdin="import anyio\nawait anyio.sleep(0)\n")
    assert done.returncode != 0
    assert "SyntaxError" in done.stderr


# --- yaml -----------------------------------------------------------------------


def yaml_kind(data: Any) -> str:
    if data is None:
        return "comment"
    assert isinstance(data, dict), "a YAML block must be a mapping"
    keys = set(data)
    if {"version", "conversation"} <= keys:
        return "workflow"  # with inline `cases:` too (docs/datasets.md)
    if {"name", "cases"} <= keys:
        return "scenario"  # a prompt-response scenario (docs/prompt-response.md)
    if "version" in keys and keys & {"responses", "variants"}:
        return "script"
    if {"provider", "model"} <= keys and keys <= {*JUDGE_KEYS, "providers"}:
        return "judge"
    config_keys = {"providers", "sandbox", "mcp_servers", "telemetry"}
    if keys & config_keys and not keys & (WORKFLOW_KEYS - {"version"}):
        return "config"
    assert keys <= WORKFLOW_KEYS, f"not a workflow, config, judge or script: {keys}"
    return "fragment"


@pytest.mark.parametrize("block", params({"yaml"}))
def test_yaml_block_loads(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    text = block.body
    data = parse_yaml(text, source=block.where).data
    kind = yaml_kind(data)
    if kind == "comment":
        assert all(
            line.startswith("#") for line in text.splitlines() if line.strip()
        ), block.where
    elif kind == "workflow":
        assert validate_agent_workflow(text, source=block.where) == []
    elif kind == "fragment":
        merged = dump({**BASE, **data})
        assert validate_agent_workflow(merged, source=block.where) == []
    elif kind == "script":
        assert parse_script(text, source=block.where)
    elif kind == "scenario":
        assert parse_scenario(text, source=block.where, environ={})
    else:
        # Trusted files may read the environment: give what they ask for.
        for name in re.findall(r"\$\{(\w+)", text):
            monkeypatch.setenv(name, "http://127.0.0.1:9/v1")
        for name in re.findall(r"api_key_env:\s*(\w+)", text):
            monkeypatch.setenv(name, "sk-docs")
        parse = parse_judge_config if kind == "judge" else parse_trusted_config
        parse(text, source=block.where)


# --- json -----------------------------------------------------------------------


@pytest.mark.parametrize("block", params({"json"}))
def test_json_block_parses(block: Block) -> None:
    text = block.body.strip()
    if text.startswith('"'):  # a member of an object, shown on its own
        text = "{" + text + "}"
    assert json.loads(text) is not None


# --- shell ----------------------------------------------------------------------


def inputs_exist(command: Command, folder: Path) -> bool:
    invocation = resolve_akit(command.words)
    inputs = [*invocation.arguments]
    inputs += [v for k, v in invocation.options.items() if k in INPUT_OPTIONS and v]
    return bool(inputs) and all((folder / path).exists() for path in inputs)


def expected_exit(command: Command) -> int:
    for line in command.output:
        shown = re.match(r"exit code: (\d+)$", line.strip())
        if shown:
            return int(shown[1])
    return 0


def shown_output(command: Command) -> list[str]:
    """The output lines a block shows for ``command``, elisions (``…``) left out."""
    return [
        line.strip()
        for line in command.output
        if line.strip() and "…" not in line and "..." not in line
    ]


def check_other_command(block: Block, words: tuple[str, ...]) -> None:
    program = words[0]
    if program in ("python", "python3") and len(words) > 2:
        if words[1] == "-m":
            module = words[2]
            assert importlib.util.find_spec(module) is not None, (block.where, module)
        elif words[1] == "-c":
            done = run([sys.executable, "-c", words[2]])
            assert done.returncode == 0, f"{block.where}\n{outcome(done)}"
        else:
            assert (ROOT / words[1]).is_file(), (block.where, words[1])
    elif program in ("bash", "sh") and len(words) > 1:
        assert (ROOT / words[1]).is_file(), (block.where, words[1])


@pytest.mark.parametrize("block", params(SHELLS))
def test_shell_block_commands_hold(block: Block, tmp_path: Path) -> None:
    if block.language != "console":
        done = run(["bash", "-n"], stdin=block.body)
        assert done.returncode == 0, f"{block.where}\n{outcome(done)}"
    commands = shell_commands(block)
    assert commands, f"{block.where}: no command"
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    for command in commands:
        if command.words[0] != "akit":
            check_other_command(block, command.words)
            continue
        resolve_akit(command.words)  # every command and option is known
        if inputs_exist(command, tmp_path):
            done = run([*AKIT, *command.words[1:]], cwd=tmp_path)
            assert done.returncode == expected_exit(command), (
                f"{block.where}: {' '.join(command.words)}\n{outcome(done)}"
            )
            assert "Traceback" not in done.stderr
            printed = {
                line.strip() for line in f"{done.stdout}\n{done.stderr}".split("\n")
            }
            missing = [line for line in shown_output(command) if line not in printed]
            assert missing == [], f"{block.where}: not printed:\n{outcome(done)}"


# --- text -----------------------------------------------------------------------


def synopsis_lines(block: Block) -> list[tuple[str, ...]]:
    """The ``akit ...`` lines of a text block, continuations joined, brackets gone."""
    found: list[str] = []
    for line in block.body.splitlines():
        if line.startswith("akit"):
            found.append(line)
        elif found and line.startswith(" ") and line.strip().startswith("["):
            found[-1] += " " + line.strip()
    return [tuple(re.sub(r"[\[\]|]", " ", line).split()) for line in found]


@pytest.mark.parametrize("block", params({"text"}))
def test_text_block_synopsis_is_known_to_the_cli(block: Block) -> None:
    for words in synopsis_lines(block):
        command, rest = find_akit_command(words)
        assert not rest or not re.match("[a-z]", rest[0]), f"{block.where}: {words}"
        unknown = [w for w in rest if w.startswith("-") and w not in command.options]
        assert unknown == [], f"{block.where}: {command.name} has no {unknown}"


def test_the_error_tree_drawing_matches_the_classes() -> None:
    """docs/errors.md draws the exception tree: every class, parent and exit code."""
    import artemiskit

    drawing = next(
        block
        for block in BLOCKS
        if block.page.name == "errors.md" and block.body.startswith("ArtemisError")
    )
    parents: dict[int, type[BaseException]] = {}
    drawn: set[str] = set()
    for line in drawing.body.splitlines():
        named = re.search(r"\b([A-Z]\w*Error)\b", line)
        if named is None:
            continue
        cls = getattr(artemiskit, named[1])
        depth = named.start() // 4
        if depth:
            public = [c for c in cls.__mro__[1:] if not c.__name__.startswith("_")]
            assert public[0] is parents[depth - 1], line
        parents[depth] = cls
        drawn.add(named[1])
        code = re.search(r"\((\d+)\)\s*$", line)
        if code:
            assert cls.exit_code == int(code[1]), line
    exported = {
        name
        for name in artemiskit.__all__
        if isinstance(getattr(artemiskit, name), type)
        and issubclass(getattr(artemiskit, name), artemiskit.ArtemisError)
    }
    assert drawn == exported
