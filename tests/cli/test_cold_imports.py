"""What a cold `akit --help`, `akit scenario validate`, `import artemiskit` load.

Each probe runs in a fresh interpreter and lists ``sys.modules`` at exit: the cold
start of SPEC 10 depends on which modules load, so that is what is pinned here (the
time itself is measured by ``python -m benchmarks``, never asserted).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "examples" / "quickstart" / "workflow.yaml"

#: Top-level packages no cold command may import (SPEC 8 and 10).
HEAVY = (
    "aiodocker",
    "aiohttp",
    "httpx",
    "httpcore",
    "rich",
    "jinja2",
    "matplotlib",
    "ray",
    "litellm",
    "playwright",
    "opentelemetry",
    "google",
    "mcp",
    "mcp_types",
    "httpx2",
)
#: ArtemisKit packages a validation has no use for.
NOT_FOR_VALIDATION = (
    "artemiskit.engine",
    "artemiskit.checkpoints",
    "artemiskit.records",
    "artemiskit.reports",
    "artemiskit.suites",
    "artemiskit.providers",
    "artemiskit.telemetry",
    "artemiskit._kit",
    "artemiskit_cli._commands.workflow",
)

#: What checking a workflow has no use for: it does not build the workflow (no
#: model classes, no cattrs), reads the built-in tools from a generated table (no
#: tool runtime), and a valid document compiles and walks no schema and makes no
#: `Problem` (so attrs is never imported).
NOT_FOR_CHECKING = (
    "artemiskit.workflow._model",
    "artemiskit.workflow._loader",
    "artemiskit.workflow._fixture",
    "artemiskit._common._converter",
    "artemiskit.tools",
    "artemiskit.environments",
    "cattrs",
)
NOT_FOR_A_VALID_DOCUMENT = (
    "artemiskit._problem",
    "attr",
    "attrs",
    "artemiskit.workflow._schema",
    "artemiskit.workflow._tool_schema",
    "fastjsonschema",
    "decimal",
)

PROBE = """
import atexit, json, sys
listing = sys.argv[1]
def report():
    with open(listing, "w") as out:
        json.dump(sorted(sys.modules), out)
atexit.register(report)
code = sys.argv[2]
sys.argv = ["akit", *sys.argv[3:]]
exec(code)
"""

CLI = "from artemiskit_cli._main import main\nmain()"


def _modules(tmp_path: Path, code: str, *argv: str) -> tuple[int, set[str], str]:
    listing = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(listing), code, *argv],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=ROOT,
    )
    return done.returncode, set(json.loads(listing.read_text("utf-8"))), done.stderr


def _under(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(
        m for m in modules for p in prefixes if m == p or m.startswith(p + ".")
    )


#: The one lazy-export mechanism every public package uses; it defines nothing else.
LAZY_EXPORTS = {"artemiskit._common", "artemiskit._common._exports"}


def test_help_imports_no_command_and_no_sdk_module(tmp_path: Path) -> None:
    code, modules, stderr = _modules(tmp_path, CLI, "--help")
    assert code == 0, stderr
    ours = {m for m in modules if m.split(".")[0] in ("artemiskit", "artemiskit_cli")}
    assert ours == {"artemiskit", "artemiskit._version", "artemiskit_cli"} | {
        "artemiskit_cli._main",
        *LAZY_EXPORTS,
    }
    assert _under(modules, HEAVY) == []
    assert "attr" not in modules
    assert "asyncio" not in modules


@pytest.mark.parametrize("flags", [(), ("--json",)])
def test_validation_imports_no_engine_config_or_heavy_library(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    code, modules, stderr = _modules(
        tmp_path, CLI, "scenario", "validate", *flags, str(QUICKSTART)
    )
    assert code == 0, stderr
    assert "artemiskit.workflow" in modules
    assert _under(modules, NOT_FOR_VALIDATION) == []
    assert _under(modules, HEAVY) == []
    assert _under(modules, ("artemiskit.environments.sandbox._environment",)) == []
    # The file is read without an event loop.
    assert _under(modules, ("asyncio", "anyio")) == []


def test_a_dataset_is_checked_case_by_case_without_engine_or_model(
    tmp_path: Path,
) -> None:
    # The 20-ticket example: its CSV is read and every case expanded and checked
    # cold, like any workflow (no engine, no network, no model classes).
    dataset = ROOT / "examples" / "datasets" / "triage.workflow.yaml"
    code, modules, stderr = _modules(
        tmp_path, CLI, "scenario", "validate", str(dataset)
    )
    assert code == 0, stderr
    assert "artemiskit.workflow._expansion" in modules
    assert _under(modules, NOT_FOR_VALIDATION) == []
    assert _under(modules, NOT_FOR_CHECKING) == []
    assert _under(modules, HEAVY) == []
    assert _under(modules, ("asyncio", "anyio")) == []


def test_a_valid_workflow_is_checked_without_compiling_a_schema(
    tmp_path: Path,
) -> None:
    # The workflow schema's validator is shipped generated and the built-in tools'
    # schemas compile on first use, so a cold validation compiles nothing.
    compiles = tmp_path / "compiles"
    counting = f"""
import fastjsonschema
_compile = fastjsonschema.compile
def counting(*args, **kwargs):
    with open({str(compiles)!r}, "a") as out:
        out.write("compiled\\n")
    return _compile(*args, **kwargs)
fastjsonschema.compile = counting
"""
    code, _, stderr = _modules(
        tmp_path, counting + CLI, "scenario", "validate", str(QUICKSTART)
    )
    assert code == 0, stderr
    assert not compiles.exists()


@pytest.mark.parametrize("flags", [(), ("--json",)])
def test_a_valid_workflow_is_checked_without_model_cattrs_or_tools(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    code, modules, stderr = _modules(
        tmp_path, CLI, "scenario", "validate", *flags, str(QUICKSTART)
    )
    assert code == 0, stderr
    assert "artemiskit.workflow._validation" in modules
    assert _under(modules, NOT_FOR_CHECKING) == []
    assert _under(modules, NOT_FOR_A_VALID_DOCUMENT) == []


def test_an_invalid_workflow_is_checked_without_model_cattrs_or_tools(
    tmp_path: Path,
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(QUICKSTART.read_text("utf-8").replace("version: 1", "version: 2"))
    code, modules, stderr = _modules(tmp_path, CLI, "scenario", "validate", str(broken))
    assert code == 2, stderr
    assert "$.version: must be 1" in stderr
    assert _under(modules, NOT_FOR_CHECKING) == []


def test_invalid_workflow_imports_no_engine(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: 2\n", "utf-8")
    code, modules, stderr = _modules(tmp_path, CLI, "scenario", "validate", str(broken))
    assert code == 2, stderr
    assert _under(modules, NOT_FOR_VALIDATION) == []
    assert _under(modules, HEAVY) == []


def test_import_artemiskit_loads_only_the_package(tmp_path: Path) -> None:
    code, modules, stderr = _modules(tmp_path, "import artemiskit")
    assert code == 0, stderr
    assert {m for m in modules if m.startswith("artemiskit")} == {
        "artemiskit",
        *LAZY_EXPORTS,
    }


def test_a_public_name_loads_on_first_use(tmp_path: Path) -> None:
    code, modules, stderr = _modules(
        tmp_path, "from artemiskit import WorkflowError, __version__"
    )
    assert code == 0, stderr
    assert "artemiskit._errors" in modules
    assert _under(modules, ("artemiskit.engine", "artemiskit._kit")) == []


def test_command_table_short_help_matches_each_command() -> None:
    from artemiskit_cli._main import COMMANDS, cli

    context = click.Context(cli)
    for name, row in COMMANDS.items():
        command = row.load()
        assert command.get_short_help_str(limit=200) == row.short_help, name
        assert cli.get_command(context, name) is command
