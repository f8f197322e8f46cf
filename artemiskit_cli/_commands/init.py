"""``akit init``: a starter project for prompt-response scenarios and workflows.

It writes ``artemis.config.yaml``, ``scenarios/example.yaml`` (the TypeScript
starter scenario), an offline workflow under ``workflows/example/``, and creates
``artemis-runs/`` and ``artemis-output/``. Existing files are kept unless
``--force``. It writes no ``.env``: no command reads one (keys come from the
environment the configuration names), so it says which variables to set instead;
``--skip-env`` is accepted, for the TypeScript CLI's scripts, and changes nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from artemiskit.prompt_response import PromptResponseExitCode

__all__ = ["init"]

CONFIG = """\
# ArtemisKit configuration (trusted: it may hold credentials).
project: my-project
scenariosDir: ./scenarios
storage:
  type: local
  basePath: ./artemis-runs
providers:
  openai:                       # scenarios say `provider: openai`
    type: openai
    api_key_env: OPENAI_API_KEY
    # base_url: http://127.0.0.1:8000/v1   # any OpenAI-compatible server
"""
SCENARIO = """\
name: example-scenario
description: "A starter scenario: greet, then add."
version: "1.0"
provider: openai
model: gpt-4o-mini
temperature: 0
cases:
  - id: greeting
    prompt: Say hello in exactly three words.
    expected:
      type: regex
      pattern: "^\\\\w+\\\\s+\\\\w+\\\\s+\\\\w+"
    tags: [basic]
  - id: arithmetic
    prompt: What is 2 + 2? Answer with just the number.
    expected:
      type: exact
      value: "4"
    tags: [basic, math]
"""
WORKFLOW = """\
# An offline workflow: `akit workflow run workflows/example/workflow.yaml`.
version: 1
name: example-workflow
description: Read the refund policy and write a one-line summary to out/summary.md.
target:
  provider: scripted
  model: example
environment:
  kind: simulated
  files:
    docs/refund-policy.md: |
      # Refund policy
      Refunds are accepted within 30 days of purchase with a receipt.
tools:
  - name: read_file
    allow: {paths: ["docs/**"]}
  - name: write_file
    allow: {paths: ["out/*.md"]}
policy:
  network: denied
  on_denial: stop
conversation:
  system: You are a careful assistant. Use the tools; never invent file contents.
  turns:
    - user: Summarize docs/refund-policy.md in one line into out/summary.md.
budgets:
  max_actions: 10
  max_model_requests: 5
  max_tool_calls: 4
  max_tokens: 5000
  timeout_ms: 30000
outcomes:
  - id: summary-written
    file: out/summary.md
    contains: ["30 days"]
  - id: wrote-once
    tool_called: write_file
    min: 1
    max: 1
"""
SCRIPT = """\
version: 1
responses:
  - tool_calls:
      - {name: read_file, arguments: {path: docs/refund-policy.md}}
    usage: {input_tokens: 120, output_tokens: 18}
  - tool_calls:
      - name: write_file
        arguments:
          path: out/summary.md
          content: "Refunds are accepted within 30 days of purchase with a receipt.\\n"
    usage: {input_tokens: 180, output_tokens: 30}
  - text: Wrote out/summary.md.
    usage: {input_tokens: 220, output_tokens: 8}
"""
ENV_KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")
FILES = {
    "artemis.config.yaml": CONFIG,
    "scenarios/example.yaml": SCENARIO,
    "workflows/example/workflow.yaml": WORKFLOW,
    "workflows/example/example.script.yaml": SCRIPT,
}


def _write(path: Path, text: str, force: bool) -> bool:
    if path.exists() and not force:
        click.echo(f"kept {path} (exists; --force overwrites)", err=True)
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    click.echo(f"created {path}", err=True)
    return True


@click.command("init")
@click.option("-f", "--force", is_flag=True, help="Overwrite existing files.")
@click.option(
    "--skip-env",
    is_flag=True,
    help="Accepted for the TypeScript CLI's scripts; no .env is written anyway.",
)
@click.option(
    "-y", "--yes", is_flag=True, help="Use the defaults (there are no prompts)."
)
def init(force: bool, skip_env: bool, yes: bool) -> None:
    """Create a starter config, one scenario and one workflow here."""
    del yes, skip_env
    root = Path.cwd()
    try:
        for folder in ("scenarios", "artemis-runs", "artemis-output"):
            (root / folder).mkdir(exist_ok=True)
        for name, text in FILES.items():
            _write(root / name, text, force)
    except OSError as exc:
        click.echo(f"error: cannot write the starter files ({exc.strerror})", err=True)
        sys.exit(PromptResponseExitCode.FAILED)
    click.echo(
        f"next: export {' or '.join(ENV_KEYS)} in your environment (no .env file is "
        "read), or point providers.openai.base_url at your server, "
        "then `akit run scenarios/`; offline: `akit workflow run "
        "workflows/example/workflow.yaml`",
        err=True,
    )
